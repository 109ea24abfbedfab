import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

export interface MetricsServerOptions {
  /** Why the process is not healthy now (then /health answers 503 with it), or null. */
  unhealthy?: () => string | null;
}

/** Serves `GET /metrics` (Prometheus text) and `GET /health` on its own port. */
export async function serveMetrics(
  registry: Registry,
  port: number,
  host: string,
  options: MetricsServerOptions = {},
): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://local').pathname;
    if (req.method === 'GET' && path === '/metrics') {
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
        () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
      );
    } else if (req.method === 'GET' && path === '/health') {
      const reason = options.unhealthy?.() ?? null;
      if (reason === null) res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      else
        res
          .writeHead(503, { 'content-type': 'application/json' })
          .end(JSON.stringify({ status: 'unavailable', reason }));
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: try GET /metrics\n');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
