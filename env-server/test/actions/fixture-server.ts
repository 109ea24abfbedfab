import { readFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = join(fileURLToPath(new URL('.', import.meta.url)), 'fixtures');

export interface FixtureServer {
  origin: string;
  url(path: string): string;
  close(): Promise<void>;
}

/**
 * Serves test/actions/fixtures over real HTTP on a loopback port. `?delay=ms` holds the response
 * that long (a slow server), `?hang` never answers (a dead one); both are released on close.
 */
export async function serveFixtures(): Promise<FixtureServer> {
  const held = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fixture');
    if (url.searchParams.has('hang')) {
      held.add(response);
      return;
    }
    const delay = Number(url.searchParams.get('delay') ?? 0);
    const timer = setTimeout(async () => {
      try {
        const body = await readFile(join(FIXTURES, basename(url.pathname)));
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
      } catch {
        response.writeHead(404).end();
      }
    }, delay);
    response.on('close', () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => `${origin}/${path}`,
    close: async () => {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
