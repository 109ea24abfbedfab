import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServeApp } from '../../serve/app.js';
import type { ServeContext } from '../../serve/context.js';
import { metricsText } from '../../serve/metrics.js';

/** A route of the run's own (`/metrics`, `/curves`): returns false when the request is not its. */
export type RunRoute = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

export interface RunServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The GRPO run's HTTP server: the run's routes first (its /metrics also carries the engine's
 * figures), then, with in-process serving, the whole vLLM-compatible policy API on the same port;
 * without it, /health and 404s.
 */
export async function startRunServer(
  routes: { metrics: () => Promise<string>; others: RunRoute[] },
  ctx: ServeContext | null,
  port: number,
  host: string,
): Promise<RunServer> {
  const policy = ctx ? createServeApp(ctx) : null;
  const server: Server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const path = new URL(req.url ?? '/', 'http://local').pathname;
      if (req.method === 'GET' && path === '/metrics') {
        const text = (await routes.metrics()) + (ctx ? metricsText(ctx) : '');
        res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(text);
        return;
      }
      for (const route of routes.others) if (await route(req, res)) return;
      if (policy) policy.emit('request', req, res);
      else if (req.method === 'GET' && path === '/health') res.writeHead(200).end();
      else
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `no route ${req.method} ${path}`, code: 404 } }));
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`internal error: ${(error as Error).message}`);
    }
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
