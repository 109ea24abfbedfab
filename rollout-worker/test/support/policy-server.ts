import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ROOT, startProcess, type Started } from './process.js';

export interface PolicyServerProcess extends Started {
  url: string;
}

/** A real `gauntlet-trainer serve` (built-in tiny model) on a free port, as its own process. */
export async function startPolicyServer(): Promise<PolicyServerProcess> {
  const started = await startProcess(
    process.execPath,
    [join(ROOT, 'trainer/bin/cli.js'), 'serve', '--port', '0', '--threads', '1'],
    / at (http:\/\/[\d.]+:\d+)/,
    { timeoutMs: 120_000 },
  );
  return { ...started, url: started.ready[1]! };
}

/**
 * A reverse proxy that answers the next `count` requests to `path` with `status` itself (an
 * overloaded or restarting policy server) and forwards everything else.
 */
export class FaultProxy {
  private readonly server = createServer((req, res) => this.handle(req, res));
  private faults = { path: '', count: 0, status: 503 };
  /** Requests answered with the fault so far. */
  faulted = 0;
  url = '';

  constructor(private readonly target: string) {}

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  failNext(path: string, count: number, status = 503): void {
    this.faults = { path, count, status };
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    if (this.faults.count > 0 && req.url === this.faults.path) {
      this.faults.count -= 1;
      this.faulted += 1;
      req.resume();
      res
        .writeHead(this.faults.status, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ error: { message: 'overloaded', type: 'ServiceUnavailable', code: this.faults.status } }),
        );
      return;
    }
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
  }
}
