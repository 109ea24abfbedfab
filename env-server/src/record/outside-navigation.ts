import type { CDPSession, Page } from 'playwright-core';
import { pyStr } from '../python/repr.js';

/** The main frame's session history as CDP's Page.getNavigationHistory reports it. */
export interface NavigationHistory {
  currentIndex: number;
  entries: { id: number; url: string; transitionType: string }[];
}

/**
 * Transition types of an entry the browser's own UI made (the address bar, a bookmark, a start
 * page): the person navigated outside the page. A link or a form ('link', 'form_submit') is the
 * page's doing, recorded as the input that caused it; a reload keeps its entry.
 */
const FROM_BROWSER_UI = new Set(['typed', 'address_bar', 'auto_bookmark', 'generated', 'keyword', 'auto_toplevel']);

/**
 * The BrowserGym actions that take the main frame from `before` to `after` when the browser, not
 * the page, moved it: a new entry typed or picked in the browser becomes goto(url); a move to an
 * entry already in the history (back/forward button, Alt+Left, the history menu) becomes one
 * go_back() or go_forward() per entry it crossed. Nothing for a move the page made.
 */
export function outsideNavigation(before: NavigationHistory, after: NavigationHistory): string[] {
  const now = after.entries[after.currentIndex];
  const was = before.entries[before.currentIndex];
  if (!now || !was || now.id === was.id) return [];
  const known = before.entries.findIndex((entry) => entry.id === now.id);
  if (known >= 0) {
    const moved = known - before.currentIndex;
    return Array<string>(Math.abs(moved)).fill(moved < 0 ? 'go_back()' : 'go_forward()');
  }
  return FROM_BROWSER_UI.has(now.transitionType) ? [`goto(${pyStr(now.url)})`] : [];
}

/**
 * Watches one page's main-frame history over CDP. `changes` compares it with the last look and
 * says what the person did outside the page meanwhile; every look moves the baseline, so a
 * navigation the env's own step made (a played click) is absorbed and never reported.
 */
export class HistoryWatch {
  private constructor(
    private readonly cdp: CDPSession,
    private last: NavigationHistory,
  ) {}

  static async open(page: Page): Promise<HistoryWatch> {
    const cdp = await page.context().newCDPSession(page);
    return new HistoryWatch(cdp, await read(cdp));
  }

  async changes(): Promise<string[]> {
    const now = await read(this.cdp);
    const actions = outsideNavigation(this.last, now);
    this.last = now;
    return actions;
  }

  async close(): Promise<void> {
    await this.cdp.detach().catch(() => undefined);
  }
}

async function read(cdp: CDPSession): Promise<NavigationHistory> {
  const { currentIndex, entries } = await cdp.send('Page.getNavigationHistory');
  return { currentIndex, entries: entries.map(({ id, url, transitionType }) => ({ id, url, transitionType })) };
}
