import type { BrowserContext } from 'playwright-core';

/**
 * `window[Symbol.for(NAVIGATION_PROBE_KEY)]()` is when the document last requested a navigation
 * away from itself that no handler cancelled (epoch ms; 0 when never). A symbol, so page scripts
 * and the DOM never see it.
 */
export const NAVIGATION_PROBE_KEY = 'gauntlet.navigation-requested-at';

/**
 * Makes every document of `context` remember when it last asked for a cross-document navigation
 * (a link click, a form submission, a `location` change).
 *
 * Why: a click's `navigate` event fires while the click is dispatched, before a listener added
 * after the click could see it, and the browser may begin the navigation (and send its request)
 * only after the page has answered the settle's flush. Without this record the settle could
 * take such a page for one that started nothing.
 */
export async function installNavigationProbe(context: BrowserContext): Promise<void> {
  await context.addInitScript(recordNavigationRequests, NAVIGATION_PROBE_KEY);
}

function recordNavigationRequests(key: string): void {
  const navigation = (window as { navigation?: EventTarget }).navigation;
  if (!navigation) return;
  let last: { event: Event; at: number } | undefined;
  // This listener runs first, so a page handler may still cancel: `defaultPrevented` is read
  // when the record is.
  navigation.addEventListener('navigate', (event) => {
    if (!(event as Event & { destination: { sameDocument: boolean } }).destination.sameDocument)
      last = { event, at: Date.now() };
  });
  Object.defineProperty(window, Symbol.for(key), { value: () => (last && !last.event.defaultPrevented ? last.at : 0) });
}
