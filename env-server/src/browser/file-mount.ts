import { readFile, realpath } from 'node:fs/promises';
import { extname, sep } from 'node:path';
import type { Route } from 'playwright-core';
import type { SiteMount } from './site.js';

/** Content types of what MiniWoB++'s html folder holds (pages, scripts, styles, images, data). */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
};

/** The mount serving `path` (a decoded URL path), if any. */
export function mountFor(path: string, mounts: readonly SiteMount[]): SiteMount | undefined {
  return mounts.find((mount) => path.startsWith(mount.prefix));
}

/**
 * Answers a request for `path` under `mount` from disk: 404 for what is missing or resolves
 * (through `..` or a symlink) outside the mount's folder.
 */
export async function fulfillFromMount(route: Route, mount: SiteMount, path: string): Promise<void> {
  const notFound = () => route.fulfill({ status: 404, contentType: 'text/plain', body: `No file at ${path}` });
  const relative = path.slice(mount.prefix.length);
  if (relative.split('/').some((part) => part === '..' || part.includes('\\') || part.includes('\0')))
    return notFound();
  try {
    const root = await realpath(mount.root);
    const file = await realpath(`${root}${sep}${relative.split('/').join(sep)}`);
    if (!file.startsWith(root + sep)) return notFound();
    const body = await readFile(file);
    const contentType = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    return route.fulfill({ status: 200, contentType, body });
  } catch {
    return notFound();
  }
}
