import type { Route } from 'playwright-core';

interface CachedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Headers that describe the transfer, not the content: the body is kept decoded. */
const TRANSFER_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection']);

/**
 * Keeps GET responses of static origins (real MiniWoB++ behind MINIWOB_URL) in memory, shared
 * by every context. Routing every request (routes.ts) turns Chromium's HTTP cache off, and a
 * MiniWoB++ episode reloads its page, scripts and styles at every reset. Only 200s are kept, up
 * to `maxBytes` in all; a changed copy needs a server restart.
 */
export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private bytes = 0;

  constructor(
    private readonly origins: readonly string[],
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  covers(route: Route): boolean {
    const request = route.request();
    if (request.method() !== 'GET' || this.origins.length === 0) return false;
    try {
      return this.origins.includes(new URL(request.url()).origin);
    } catch {
      return false;
    }
  }

  /** Answers from memory, or fetches (and keeps a 200 while the budget lasts). */
  async fulfill(route: Route): Promise<void> {
    const url = route.request().url();
    const cached = this.entries.get(url);
    if (cached) return route.fulfill(cached);
    let response;
    try {
      response = await route.fetch();
    } catch {
      return route.abort('failed'); // the origin is down: the page sees a failed load, never a hang
    }
    const body = await response.body();
    const status = response.status();
    const headers = Object.fromEntries(
      Object.entries(response.headers()).filter(([name]) => !TRANSFER_HEADERS.has(name.toLowerCase())),
    );
    const entry = { status, headers, body };
    if (status === 200 && !this.entries.has(url) && this.bytes + body.length <= this.maxBytes) {
      this.bytes += body.length;
      this.entries.set(url, entry);
    }
    return route.fulfill(entry);
  }
}
