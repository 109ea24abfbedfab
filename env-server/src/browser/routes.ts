import type { BrowserContext, Route } from 'playwright-core';
import { TASK_ORIGIN, type SiteMount, type TaskSite } from './site.js';
import { fulfillFromMount, mountFor } from './file-mount.js';
import type { ResponseCache } from './response-cache.js';
import { installSocketRoutes } from './socket-routes.js';
import { isOriginAllowed, type OriginPolicy } from './origin-policy.js';

/**
 * Answers the task origin from memory and aborts requests to origins the operator did not allow.
 * One handler for every request keeps the policy in one place; WebSockets, which requests routes
 * never see, get the same policy from socket-routes.ts.
 */
export async function installSiteRoutes(
  context: BrowserContext,
  site: TaskSite,
  policy: OriginPolicy,
  mounts: readonly SiteMount[] = [],
  cache?: ResponseCache,
): Promise<void> {
  await context.route('**/*', (route) => handle(route, site, policy, mounts, cache));
  await installSocketRoutes(context, policy);
}

async function handle(
  route: Route,
  site: TaskSite,
  policy: OriginPolicy,
  mounts: readonly SiteMount[],
  cache: ResponseCache | undefined,
): Promise<void> {
  const request = route.request();
  const url = request.url();
  // By origin, not by prefix: `http://user@tasks.gauntlet.test/` is the task origin too, and
  // must never go out to look the name up.
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed?.origin === TASK_ORIGIN) {
    const path = parsed.pathname;
    const decoded = decodedPath(path);
    const mount = decoded === undefined ? undefined : mountFor(decoded, mounts);
    if (mount) return fulfillFromMount(route, mount, decoded!);
    const asset = site.get(path);
    if (!asset) return route.fulfill({ status: 404, contentType: 'text/plain', body: `No task asset at ${path}` });
    return route.fulfill({ status: 200, contentType: asset.contentType, body: Buffer.from(asset.body) });
  }
  if (isOriginAllowed(url, policy)) return cache?.covers(route) ? cache.fulfill(route) : route.continue();
  // A refused navigation is cancelled ('aborted'), which leaves the frame on its document; the
  // navigation guard reports it to the action. Other requests fail as a blocked load.
  return route.abort(request.isNavigationRequest() ? 'aborted' : 'blockedbyclient');
}

/** The path with %-escapes decoded; undefined when they are malformed (then nothing is served from disk). */
function decodedPath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}
