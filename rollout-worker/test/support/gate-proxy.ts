import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A reverse proxy in front of an env server's HTTP port that can hold `POST /step` requests:
 * while closed, steps wait at the gate, so a test knows an episode is mid-flight (reset done,
 * step pending) and can kill a worker or restart Redis at that exact point. Opening forwards
 * the held steps and everything after.
 */
export class StepGate {
  private readonly server = createServer((req, res) => this.handle(req, res));
  private readonly held: (() => void)[] = [];
  private readonly waiters: { count: number; resolve: () => void }[] = [];
  private closed = true;
  url = '';

  constructor(private readonly target: string) {}

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Resolves once `count` steps are waiting at the gate. */
  heldSteps(count: number): Promise<void> {
    if (this.held.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  open(): void {
    this.closed = false;
    for (const release of this.held.splice(0)) release();
  }

  async close(): Promise<void> {
    this.open();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const forward = () => {
      const upstream = request(
        new URL(req.url ?? '/', this.target),
        { method: req.method, headers: req.headers },
        (reply) => {
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    };
    if (!(this.closed && req.method === 'POST' && req.url?.startsWith('/step'))) return forward();
    this.held.push(forward);
    for (const waiter of [...this.waiters]) {
      if (this.held.length >= waiter.count) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }
}
