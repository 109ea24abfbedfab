import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServeApp } from '../../serve/app.js';
import { ApiKeys } from '../../serve/auth.js';
import type { ServeContext } from '../../serve/context.js';
import { sendError } from '../../serve/http-io.js';
import { listenOn } from '../../serve/listen.js';
import { metricsText } from '../../serve/metrics.js';

/** A route of the run's own (`/metrics`, `/curves`): returns false when the request is not its. */
export type RunRoute = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

export interface RunServer {
  url: string;
  close(): Promise<void>;
}

/** The run's read-only figures: they need a key when the server has keys, unless `publicMetrics`. */
const METRICS_ROUTES = new Set(['GET /metrics', 'GET /curves', 'GET /curves.json']);

export interface RunServerAccess {
  /** Bearer keys every route but /health needs (none: all open), as the policy API's. */
  apiKeys?: readonly string[];
  /** Leave /metrics, /curves and /curves.json open (a Prometheus scrape inside a cluster network). */
  publicMetrics?: boolean;
}

/**
 * The GRPO run's HTTP server: the run's routes first (its /metrics also carries the engine's
 * figures), then, with in-process serving, the whole vLLM-compatible policy API on the same port;
 * without it, /health and 404s. The run's routes answer to the same keys as the policy API.
 */
export async function startRunServer(
  routes: { metrics: () => Promise<string>; others: RunRoute[] },
  ctx: ServeContext | null,
  port: number,
  host: string,
  access: RunServerAccess = {},
): Promise<RunServer> {
  const policy = ctx ? createServeApp(ctx) : null;
  const keys = new ApiKeys(access.apiKeys ?? []);
  const server: Server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const path = new URL(req.url ?? '/', 'http://local').pathname;
      const route = `${req.method === 'HEAD' ? 'GET' : req.method} ${path}`;
      // The policy API checks its own routes; the run's figures are checked here.
      if (METRICS_ROUTES.has(route) && !access.publicMetrics) {
        try {
          keys.check(route, req);
        } catch (error) {
          sendError(res, error);
          return;
        }
      }
      if (req.method === 'GET' && path === '/metrics') {
        const text = (await routes.metrics()) + (ctx ? await metricsText(ctx) : '');
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
  await listenOn(server, port, host);
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
