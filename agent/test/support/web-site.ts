import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebSite {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  close(): Promise<void>;
}

/**
 * A tiny site on 127.0.0.1 for open-web (`web` task) tests: `/` links to `/order`, which says
 * "Order 42 placed" and has a note field and button; `/counter` counts the clicks and double
 * clicks of its button; `/away` redirects to `redirectTo`. Loopback, so the env reaches it only
 * when a test names its origin in allowedOrigins.
 */
export async function startWebSite(redirectTo = 'http://127.0.0.1:9/'): Promise<WebSite> {
  const pages: Record<string, string> = {
    '/': '<title>Shop</title><h1>Shop</h1><a href="/order">Place order</a>',
    '/order':
      '<title>Done</title><h1>Thanks</h1><p>Order 42 placed</p><label>Note <input name="note"></label><button>Send note</button>',
    // Counts what a double click makes: the clicks and the dblclick event (for record's tests).
    '/counter':
      '<title>Counter</title><button id="open">Open</button><p id="count">clicks 0, double clicks 0</p>' +
      '<script>let c = 0, d = 0; const b = document.getElementById("open"), p = document.getElementById("count");' +
      'const show = () => (p.textContent = `clicks ${c}, double clicks ${d}`);' +
      'b.addEventListener("click", () => { c++; show(); }); b.addEventListener("dblclick", () => { d++; show(); });</script>',
  };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/away') return void res.writeHead(302, { location: redirectTo }).end();
    const body = pages[path];
    if (!body) return void res.writeHead(404).end('not found');
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><html><body>${body}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
