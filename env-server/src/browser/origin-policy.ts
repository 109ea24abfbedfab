import { TASK_ORIGIN } from './site.js';
import { isLoopbackHost } from './loopback.js';

/** Which origins pages may load; everything else is aborted (no SSRF through goto or subresources). */
export interface OriginPolicy {
  /** Extra origins beyond the task origin; `*` allows any http(s) origin but loopback (isLoopbackHost). */
  extra: string[];
}

export function isOriginAllowed(url: string, policy: OriginPolicy): boolean {
  if (url === 'about:blank' || url.startsWith('data:') || url.startsWith('blob:')) return true;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.origin === TASK_ORIGIN) return true;
  if (
    parsed.protocol !== 'http:' &&
    parsed.protocol !== 'https:' &&
    parsed.protocol !== 'ws:' &&
    parsed.protocol !== 'wss:'
  )
    return false;
  return policy.extra.some((origin) =>
    origin === '*' ? !isLoopbackHost(parsed.hostname) : normalizeOrigin(origin) === parsed.origin,
  );
}

function normalizeOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin;
  }
}
