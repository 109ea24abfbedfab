import type { BrowserContext } from 'playwright-core';
import { TASK_ORIGIN } from './site.js';
import type { OriginPolicy } from './origin-policy.js';

/**
 * WebSockets are not requests `context.route` sees, so a page could otherwise open one to any
 * host and port (a loopback service, the metadata server). Pages may open a WebSocket only to the
 * task origin, an origin the operator allowed (its http(s) origin allows its ws(s) one), or a
 * server of ours a task registered for its context (the Gauntlet's code server on loopback).
 *
 * Playwright routes WebSockets by wrapping the page's WebSocket constructor: it covers every
 * document the agent's actions reach, not a Worker a page script starts itself. With data: and
 * blob: navigation refused and script actions off, only pages of allowed origins run scripts.
 */
/** Origins of our own servers each context's pages may reach (allowSocketOrigin). */
const registered = new WeakMap<BrowserContext, Set<string>>();

export async function installSocketRoutes(context: BrowserContext, policy: OriginPolicy): Promise<void> {
  await context.routeWebSocket(
    () => true,
    (socket) => {
      if (isSocketAllowed(socket.url(), policy, registered.get(context))) socket.connectToServer();
      // 1008: policy violation; the server is never contacted.
      else socket.close({ code: 1008, reason: 'WebSocket blocked: origin not allowed' }).catch(() => undefined);
    },
  );
}

/** The origins registered for `context` (the egress proxy lets its tunnels reach them too). */
export function registeredSocketOrigins(context: BrowserContext): ReadonlySet<string> {
  return registered.get(context) ?? new Set();
}

/** Lets pages of `context` open WebSockets to the origin of `url` (a server the task itself runs). */
export function allowSocketOrigin(context: BrowserContext, url: string): void {
  const origins = registered.get(context) ?? new Set<string>();
  origins.add(new URL(url).origin);
  registered.set(context, origins);
}

export function isSocketAllowed(
  url: string,
  policy: OriginPolicy,
  registeredOrigins: ReadonlySet<string> = new Set(),
): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') return false;
  if (registeredOrigins.has(parsed.origin)) return true;
  // The ws(s) origin of an http(s) origin: same host and port, the scheme's secure twin.
  const asHttp = new URL(parsed.href.replace(/^ws/, 'http')).origin;
  if (asHttp === TASK_ORIGIN) return true;
  return policy.extra.some(
    (origin) => origin === '*' || sameOrigin(origin, asHttp) || sameOrigin(origin, parsed.origin),
  );
}

function sameOrigin(entry: string, origin: string): boolean {
  try {
    return new URL(entry).origin === origin;
  } catch {
    return entry === origin;
  }
}
