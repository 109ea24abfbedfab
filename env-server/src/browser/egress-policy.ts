import { TASK_ORIGIN } from './site.js';
import { isLoopbackHost } from './loopback.js';
import type { OriginPolicy } from './origin-policy.js';

/** Where the browser asked the egress proxy to go: one plain-http request, or a tunnel (https, ws(s), TURN). */
export type EgressTarget = { kind: 'request'; url: URL } | { kind: 'tunnel'; host: string; port: number };

/**
 * Whether the browser may reach `target`. `checkAddress` is set when only `*` allowed it: the
 * name must then not resolve to loopback either (a public name can point at 127.0.0.1).
 */
export type EgressDecision = { allowed: false } | { allowed: true; checkAddress: boolean };

const REFUSED: EgressDecision = { allowed: false };

/**
 * The origin policy of origin-policy.ts applied where the browser's traffic leaves it, so every hop is
 * checked: redirects, which request routes never see, and what workers and WebRTC open.
 * The task origin is answered from memory and never goes out.
 */
export function egressDecision(
  target: EgressTarget,
  policy: OriginPolicy,
  registeredSockets: ReadonlySet<string> = new Set(),
): EgressDecision {
  const origins = originsOf(target);
  if (!origins) return REFUSED;
  const hostname = new URL(origins[0]!).hostname;
  if (origins.includes(TASK_ORIGIN) || `http://${hostname}` === TASK_ORIGIN) return REFUSED;
  if (origins.some((origin) => registeredSockets.has(origin))) return { allowed: true, checkAddress: false };
  const named = policy.extra.filter((entry) => entry !== '*').map(normalizeOrigin);
  if (origins.some((origin) => named.includes(origin))) return { allowed: true, checkAddress: false };
  if (policy.extra.includes('*') && !isLoopbackHost(hostname)) return { allowed: true, checkAddress: true };
  return REFUSED;
}

/**
 * The origins a target stands for. A tunnel to host:port may carry https, wss, or ws (Chromium
 * tunnels WebSockets through the proxy); an allowed http(s) origin allows its ws(s) twin.
 */
function originsOf(target: EgressTarget): string[] | undefined {
  if (target.kind === 'request') return target.url.protocol === 'http:' ? [target.url.origin] : undefined;
  const authority = `${target.host}:${target.port}`;
  if (!URL.canParse(`https://${authority}`)) return undefined;
  return ['https', 'http', 'wss', 'ws'].map((scheme) => new URL(`${scheme}://${authority}`).origin);
}

function normalizeOrigin(entry: string): string {
  return URL.canParse(entry) ? new URL(entry).origin : entry;
}
