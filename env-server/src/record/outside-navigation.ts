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

/** A goto outsideNavigation reported: no page makes such an entry, so it is always the person's. */
export const isGoto = (action: string): boolean => action.startsWith('goto(');

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
  if (known < 0) return FROM_BROWSER_UI.has(now.transitionType) ? [`goto(${pyStr(now.url)})`] : [];
  // Counted in `after` where both entries are still there: Chromium drops the oldest entries past
  // its limit, so an index in `before` may have shifted since.
  const from = after.entries.findIndex((entry) => entry.id === was.id);
  const moved = from >= 0 ? after.currentIndex - from : known - before.currentIndex;
  return Array<string>(Math.abs(moved)).fill(moved < 0 ? 'go_back()' : 'go_forward()');
}

/**
 * How long a look waits for the browser's history to catch up with a navigation the main frame
 * already reported, and for one answer to Page.getNavigationHistory (see HistoryWatch.caughtUp).
 */
const CATCH_UP_MS = 5_000;
const CATCH_UP_POLL_MS = 20;
const READ_MS = 2_000;

/**
 * Watches one page's main-frame history over CDP. `changes` compares it with the last look and
 * says what the person did outside the page meanwhile; every look moves the baseline, so a
 * navigation the env's own step made (a played click) is absorbed and never reported.
 */
export class HistoryWatch {
  /** The looks in the order they were asked for: each is compared with the one before it. */
  private looks: Promise<unknown> = Promise.resolve();
  private cdp: Promise<CDPSession>;
  private last: NavigationHistory = { currentIndex: -1, entries: [] };
  private closed = false;

  private constructor(private readonly page: Page) {
    this.cdp = attach(page);
  }

  static async open(page: Page): Promise<HistoryWatch> {
    const watch = new HistoryWatch(page);
    try {
      watch.last = await watch.caughtUp();
    } catch (error) {
      await watch.close();
      throw error;
    }
    return watch;
  }

  /** What the browser did since the last look; looks run one after another, in the order asked. */
  changes(): Promise<string[]> {
    const look = this.looks.then(() => this.look());
    this.looks = look.catch(() => undefined);
    return look;
  }

  async close(): Promise<void> {
    this.closed = true;
    await detach(this.cdp);
  }

  private async look(): Promise<string[]> {
    const now = await this.caughtUp();
    const actions = outsideNavigation(this.last, now);
    this.last = now;
    return actions;
  }

  /**
   * The history once its current entry is the page the main frame shows. Playwright's
   * framenavigated comes from the renderer, the history from the browser process, over separate
   * channels: a look right after the event could still read the entry before it (not committed
   * there yet), take it for the new baseline and never see the navigation. Polled (no CDP event
   * says the history committed) and bounded: a page whose URL the history never shows (Chromium's
   * error page) is read as it is after CATCH_UP_MS. A read that fails or does not answer within
   * READ_MS is tried again on a fresh CDP session: right after a back/forward, Chromium can answer
   * "Not attached to an active page" (the session still on the frame host it left), and a look
   * that gave up there would lose that navigation for good.
   */
  private async caughtUp(): Promise<NavigationHistory> {
    const until = performance.now() + CATCH_UP_MS;
    for (;;) {
      const history = await this.read().catch((error: unknown) => {
        if (this.closed || performance.now() >= until) throw error;
        void detach(this.cdp);
        this.cdp = attach(this.page);
        return undefined;
      });
      if (history) {
        const url = this.page.url();
        if (history.entries[history.currentIndex]?.url === url || url.startsWith('chrome-error:')) return history;
        if (performance.now() >= until) return history;
      }
      await new Promise((resolve) => setTimeout(resolve, CATCH_UP_POLL_MS));
    }
  }

  private async read(): Promise<NavigationHistory> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Page.getNavigationHistory: no answer in ${READ_MS} ms`)), READ_MS);
    });
    try {
      const cdp = await Promise.race([this.cdp, timeout]);
      const { currentIndex, entries } = await Promise.race([cdp.send('Page.getNavigationHistory'), timeout]);
      return { currentIndex, entries: entries.map(({ id, url, transitionType }) => ({ id, url, transitionType })) };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A CDP session on the page; its failure is seen by the read that awaits it, never unhandled. */
function attach(page: Page): Promise<CDPSession> {
  const cdp = page.context().newCDPSession(page);
  cdp.catch(() => undefined);
  return cdp;
}

async function detach(cdp: Promise<CDPSession>): Promise<void> {
  await cdp.then((session) => session.detach()).catch(() => undefined);
}
