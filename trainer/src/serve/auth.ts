import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { UnauthorizedError } from '@gauntlet/proto';

/** Routes that answer without a key: liveness probes (vLLM leaves /health open too). */
const OPEN_ROUTES = new Set(['GET /health', 'GET /health/']);

/**
 * The bearer keys a server accepts (`--api-key`, VLLM_API_KEY or GAUNTLET_TOKEN). With none, every
 * route is open. With any, every route but the health probes needs `Authorization: Bearer <key>`,
 * checked before the body is read. Keys are compared as SHA-256 digests in constant time, so
 * neither their content nor their length shows in the timing.
 */
export class ApiKeys {
  private readonly digests: Buffer[];

  constructor(keys: readonly string[]) {
    this.digests = keys.map(digest);
  }

  get enabled(): boolean {
    return this.digests.length > 0;
  }

  /** Throws UnauthorizedError (401) unless the route is open or the request carries an accepted key. */
  check(route: string, req: IncomingMessage): void {
    if (!this.enabled || OPEN_ROUTES.has(route)) return;
    const match = /^Bearer +(.+)$/i.exec(req.headers.authorization ?? '');
    const given = match ? digest(match[1]!.trim()) : undefined;
    let accepted = false;
    for (const expected of this.digests)
      accepted = (given !== undefined && timingSafeEqual(given, expected)) || accepted;
    if (!accepted) throw new UnauthorizedError();
  }
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}
