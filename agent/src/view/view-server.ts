import { createReadStream, realpathSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname } from 'node:path';
import { InfraError } from '@gauntlet/proto';
import { lineDiff } from './line-diff.js';
import { VIEW_PAGE } from './view-page.js';
import { screenshotFocus } from './screenshot-focus.js';
import { insideRoot } from './view-source.js';
import type { ViewEpisode, ViewSource } from './view-types.js';

export interface ViewServer {
  url: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.txt': 'text/plain; charset=utf-8',
};

/** Nothing but this page's own inline script and style, and images from this server. */
const PAGE_POLICY =
  "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'";

/**
 * The viewer's server, on 127.0.0.1 only: `/` the page, `/api/episodes` the list, `/api/episodes/N`
 * one episode's steps with their AXTree diffs, `/files/PATH` a file of the source's folder (and
 * nothing outside it). Requests naming another host are refused, so a web page cannot reach it
 * through a rebound DNS name.
 */
export async function startViewServer(source: ViewSource, port = 0): Promise<ViewServer> {
  const server: Server = createServer((req, res) => {
    try {
      route(source, req, res, (server.address() as AddressInfo).port);
    } catch (error) {
      send(res, 500, 'text/plain; charset=utf-8', `viewer error: ${(error as Error).message}`);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new InfraError(`--port ${port}: ${error.code === 'EADDRINUSE' ? 'already in use' : error.message}`)),
    );
    server.listen(port, '127.0.0.1', resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function route(source: ViewSource, req: IncomingMessage, res: ServerResponse, port: number): void {
  const host = req.headers.host ?? '';
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return send(res, 403, 'text/plain', 'wrong host');
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'GET only');
  const path = (req.url ?? '/').split('?')[0]!;
  if (path === '/')
    return send(res, 200, 'text/html; charset=utf-8', VIEW_PAGE, { 'content-security-policy': PAGE_POLICY });
  if (path === '/api/episodes') return json(res, source.episodes().map(summary));
  const one = /^\/api\/episodes\/(\d+)$/.exec(path);
  if (one) {
    const episode = source.episodes()[Number(one[1])];
    return episode ? json(res, detail(episode)) : send(res, 404, 'text/plain', 'no such episode');
  }
  if (path.startsWith('/files/')) return sendFile(source.root, path.slice('/files/'.length), res);
  send(res, 404, 'text/plain', 'not found');
}

function summary(episode: ViewEpisode, index: number) {
  const { id, task, seed, outcome, reward, error } = episode;
  return { index, id, task, seed, outcome, reward, error, steps: episode.turns.length };
}

function detail(episode: ViewEpisode) {
  let previous = '';
  const turns = episode.turns.map(({ page, ...turn }) => {
    const text = page();
    const diff = lineDiff(previous, text);
    previous = text;
    // The part of the screenshot the page zooms to (null: all of it).
    const focus = turn.screenshot ? screenshotFocus(turn.url, turn.marks) : null;
    return { ...turn, diff, focus };
  });
  return { ...episode, turns };
}

function sendFile(root: string, encoded: string, res: ServerResponse): void {
  let relative: string;
  try {
    relative = decodeURIComponent(encoded);
  } catch {
    return send(res, 400, 'text/plain', 'bad path');
  }
  const full = insideRoot(root, relative);
  const type = TYPES[extname(relative).toLowerCase()];
  if (!full || !type) return send(res, 404, 'text/plain', 'not found');
  let real: string;
  try {
    // A link inside the folder may not lead out of it either.
    real = realpathSync(full);
    if (!insideRoot(realpathSync(root), real) || !statSync(real).isFile()) throw new Error('outside');
  } catch {
    return send(res, 404, 'text/plain', 'not found');
  }
  res.writeHead(200, { 'content-type': type, 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' });
  createReadStream(real).pipe(res);
}

function json(res: ServerResponse, value: unknown): void {
  send(res, 200, 'application/json', JSON.stringify(value));
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': type, 'x-content-type-options': 'nosniff', ...headers }).end(body);
}
