import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

interface Ticket {
  code: string;
  delayMs: number;
  /** Channels the page must subscribe to, in this order, before the code is sent. */
  order: string[];
}

/** Tickets kept before the oldest are forgotten (a long-running server resets many runs). */
const MAX_TICKETS = 10_000;

/**
 * The real WebSocket endpoint of the `websocket` challenge, served by the env server process on
 * loopback. Each run registers a ticket per WebSocket step; the page sends it and the code comes
 * back in a message after the step's delay. The code lives only here until that message.
 *
 * Protocol (JSON text frames): page → `{"type":"hello","ticket"}`, server →
 * `{"type":"welcome","order":[channels]}`; page → `{"type":"subscribe","channel"}` per channel, in
 * that order, server → `{"type":"subscribed","channel"}`; page → `{"type":"request"}`, server
 * (after the delay) → `{"type":"code","code"}`. A subscription out of order, or a request before
 * every subscription, gets `{"type":"refused","reason"}` and starts the subscriptions over.
 * Unknown tickets are closed with 4404.
 */
export class CodeSocketServer {
  private static shared: Promise<CodeSocketServer> | undefined;
  private readonly tickets = new Map<string, Ticket>();
  /** Connections accepted so far (tests check the browser really connected). */
  connections = 0;

  private constructor(
    http: Server,
    readonly url: string,
  ) {
    const wss = new WebSocketServer({ server: http, maxPayload: 4096 });
    wss.on('connection', (socket, request) => {
      this.connections += 1;
      // Open sockets must not keep a finished process alive; the browser closes them anyway.
      request.socket.unref();
      this.serve(socket);
    });
  }

  /** The process-wide server, started on first use (ephemeral loopback port). */
  static get(): Promise<CodeSocketServer> {
    this.shared ??= new Promise<CodeSocketServer>((resolve, reject) => {
      const http = createServer((_req, res) => res.writeHead(426).end('WebSocket only'));
      http.once('error', reject);
      http.listen(0, '127.0.0.1', () => {
        http.unref();
        const { port } = http.address() as AddressInfo;
        resolve(new CodeSocketServer(http, `ws://127.0.0.1:${port}/gauntlet/code`));
      });
    });
    return this.shared;
  }

  register(code: string, delayMs: number, order: string[] = []): string {
    const ticket = randomBytes(12).toString('hex');
    this.tickets.set(ticket, { code, delayMs, order });
    if (this.tickets.size > MAX_TICKETS) this.tickets.delete(this.tickets.keys().next().value!);
    return ticket;
  }

  private serve(socket: WebSocket): void {
    let ticket: Ticket | undefined;
    let subscribed = 0;
    const timers: NodeJS.Timeout[] = [];
    const refuse = (reason: string) => {
      subscribed = 0;
      socket.send(JSON.stringify({ type: 'refused', reason }));
    };
    socket.on('close', () => timers.forEach(clearTimeout));
    socket.on('message', (data) => {
      let message: { type?: unknown; ticket?: unknown; channel?: unknown };
      try {
        message = JSON.parse(data.toString());
      } catch {
        return socket.close(4400, 'expected JSON');
      }
      if (message.type === 'hello') {
        ticket = typeof message.ticket === 'string' ? this.tickets.get(message.ticket) : undefined;
        if (!ticket) return socket.close(4404, 'unknown ticket');
        return socket.send(JSON.stringify({ type: 'welcome', order: ticket.order }));
      }
      if (message.type === 'subscribe' && ticket) {
        if (message.channel !== ticket.order[subscribed]) return refuse(`${String(message.channel)} is out of order`);
        subscribed += 1;
        return socket.send(JSON.stringify({ type: 'subscribed', channel: message.channel }));
      }
      if (message.type === 'request' && ticket) {
        if (subscribed < ticket.order.length) return refuse('subscribe to every channel first');
        const { code, delayMs } = ticket;
        timers.push(
          setTimeout(
            () => socket.readyState === socket.OPEN && socket.send(JSON.stringify({ type: 'code', code })),
            delayMs,
          ).unref(),
        );
        return;
      }
      socket.close(4400, 'say hello with a ticket first');
    });
  }
}
