import { isOriginAllowed, type OriginPolicy } from './origin-policy.js';

export interface NavigationPolicy extends OriginPolicy {
  /** Whether `goto` may open data: and blob: URLs (the operator's --allow-data-urls). */
  allowDataUrls: boolean;
}

/**
 * data: and blob: documents are written by whoever names them: a `goto` to one runs the agent's
 * own JavaScript although script actions are off, so they need the operator's consent.
 */
const AGENT_WRITTEN = new Set(['data:', 'blob:']);
/** Never a page an agent should open: script URLs, the server's files, sandboxed file systems. */
const NEVER = new Set(['javascript:', 'file:', 'filesystem:']);
const SHOWN_URL_CHARS = 200;

/**
 * Why `goto(url)` is refused, or undefined when it may go ahead. Only what `goto` asks for is
 * checked here; requests pages make are filtered by the context's routes (routes.ts).
 */
export function navigationRefusal(url: string, policy: NavigationPolicy): string | undefined {
  const scheme = schemeOf(url);
  if (scheme && NEVER.has(scheme)) return `Navigation to ${scheme} URLs is blocked`;
  if (scheme && AGENT_WRITTEN.has(scheme)) {
    return policy.allowDataUrls
      ? undefined
      : `Navigation to ${scheme} URLs is blocked: they would run page JavaScript (the operator can allow them with --allow-data-urls)`;
  }
  // The origin ignores `user:password@`, but Chromium sends the URL as written: such a URL could
  // pass for the task origin and still leave for the network.
  if (hasCredentials(url)) return `Navigation to URLs with credentials (user:password@) is blocked`;
  return isOriginAllowed(url, policy) ? undefined : originRefusal(url);
}

/**
 * Why a navigation the page itself made (a redirect, a link, a frame, a popup) was refused, or
 * undefined when nothing blocked it: http(s) outside the origin policy (routes.ts and the egress
 * proxy stop those) and file: frames (file-frames.ts). Other schemes never make a request.
 */
export function hopRefusal(url: string, policy: OriginPolicy): string | undefined {
  const scheme = schemeOf(url);
  if (scheme === 'file:') return `Navigation to file: URLs is blocked`;
  if (scheme !== 'http:' && scheme !== 'https:') return undefined;
  return isOriginAllowed(url, policy) ? undefined : originRefusal(url);
}

function originRefusal(url: string): string {
  return `Navigation to ${shown(url)} is blocked: only the task origin is allowed (the operator can allow more origins with --allow-origin)`;
}

function hasCredentials(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return parsed.username !== '' || parsed.password !== '';
}

/** The URL's scheme as the browser reads it (case and surrounding blanks do not matter there). */
function schemeOf(url: string): string | undefined {
  try {
    return new URL(url).protocol;
  } catch {
    return undefined;
  }
}

export function shown(url: string): string {
  return url.length > SHOWN_URL_CHARS ? `${url.slice(0, SHOWN_URL_CHARS)}…` : url;
}
