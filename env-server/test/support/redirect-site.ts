import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A site on loopback that sends the browser wherever `?to=` says, in each way a page can:
 * `/redirect` (302), `/meta` (meta refresh), `/script` (location assignment), `/frame` (an iframe
 * whose source redirects) and `/popup` (window.open of a redirect). `/` is a plain page.
 */
export interface RedirectSite {
  origin: string;
  /** Requests it answered, by path and query. */
  readonly hits: string[];
  close(): Promise<void>;
}

export async function startRedirectSite(): Promise<RedirectSite> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? '');
    answer(request, response);
  });
  await listen(server, '127.0.0.1');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, hits, close: () => close(server) };
}

function answer(request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://site');
  const to = url.searchParams.get('to') ?? '/';
  const redirect = `/redirect?to=${encodeURIComponent(to)}`;
  const page = (body: string): void =>
    void response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(`<!doctype html><title>redirect site</title>${body}`);
  switch (url.pathname) {
    case '/redirect':
      return void response.writeHead(302, { location: to }).end();
    case '/meta':
      return page(`<meta http-equiv="refresh" content="0; url=${escape(redirect)}"><p>meta</p>`);
    case '/script':
      return page(`<p>script</p><script>location.href = ${JSON.stringify(redirect)}</script>`);
    case '/frame':
      return page(`<p>framed</p><iframe src="${escape(redirect)}"></iframe>`);
    case '/popup':
      return page(`<p>opener</p><script>window.open(${JSON.stringify(redirect)})</script>`);
    default:
      return page('<p>allowed home</p>');
  }
}

/** A server on loopback that must never be reached: it counts the connections it got, on IPv4 and IPv6. */
export interface Bystander {
  port: number;
  /** Connections it accepted, on either address. */
  connections(): number;
  close(): Promise<void>;
}

export async function startBystander(): Promise<Bystander> {
  let connections = 0;
  const handler = (_request: IncomingMessage, response: ServerResponse) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end('<title>secret</title><p>bystander secret</p>');
  const v4 = createServer(handler);
  await listen(v4, '127.0.0.1');
  const port = (v4.address() as AddressInfo).port;
  const v6 = createServer(handler);
  // ::1 may be missing in a container; the IPv4 listener still counts what matters there.
  const hasV6 = await listen(v6, '::1', port).then(
    () => true,
    () => false,
  );
  for (const server of hasV6 ? [v4, v6] : [v4]) server.on('connection', () => (connections += 1));
  return {
    port,
    connections: () => connections,
    close: async () => {
      await close(v4);
      if (hasV6) await close(v6);
    },
  };
}

function listen(server: Server, host: string, port = 0): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
