import type { BrowserContext, Page } from 'playwright-core';
import { ActionError } from '../actions/types.js';

export interface TabOptions {
  /** Most tabs open at once; `new_tab` beyond it is an action error, pages a page opens beyond it are closed. */
  maxTabs: number;
  /** A tab's renderer crashed. */
  onCrash(page: Page): void;
}

/** The open tabs of one session, in order, and which one actions address. */
export class Tabs {
  private list: Page[];
  private activeIndex = 0;

  constructor(
    private readonly context: BrowserContext,
    first: Page,
    private readonly options: TabOptions,
  ) {
    this.list = [first];
    first.on('crash', () => options.onCrash(first));
    // Pages opened by the page itself (window.open, target=_blank) become tabs too, within the cap:
    // each tab is a renderer, and a page that opens windows in a loop must not exhaust the host.
    context.on('page', (page) => {
      if (this.list.includes(page)) return;
      if (this.list.length >= options.maxTabs) {
        void page.close().catch(() => undefined);
        return;
      }
      this.adopt(page);
    });
  }

  get active(): Page {
    return this.list[this.activeIndex] ?? this.list[0]!;
  }

  get index(): number {
    return this.activeIndex;
  }

  all(): Page[] {
    return [...this.list];
  }

  async open(): Promise<Page> {
    if (this.list.length >= this.options.maxTabs) throw this.tooMany();
    const page = await this.context.newPage();
    // The context's `page` listener adopts it, unless the page's own popups took the last places meanwhile.
    if (!this.list.includes(page)) {
      if (this.list.length >= this.options.maxTabs) {
        await page.close().catch(() => undefined);
        throw this.tooMany();
      }
      this.adopt(page);
    }
    this.activeIndex = this.list.indexOf(page);
    return page;
  }

  async closeActive(): Promise<void> {
    const page = this.active;
    if (this.list.length === 1) {
      // A session always keeps one tab: closing the last one leaves a blank page, like a browser would.
      await page.goto('about:blank');
      return;
    }
    this.forget(page);
    await page.close();
  }

  async focus(index: number): Promise<void> {
    const page = this.list[index];
    if (!page) throw new RangeError(`tab index ${index} out of range (0..${this.list.length - 1})`);
    this.activeIndex = index;
    await page.bringToFront();
  }

  /** Closes every tab but the first (used on reset so episodes start alike). */
  async keepOnlyFirst(): Promise<void> {
    const extra = this.list.slice(1);
    this.list = this.list.slice(0, 1);
    this.activeIndex = 0;
    await Promise.all(extra.map((page) => page.close().catch(() => undefined)));
  }

  private adopt(page: Page): void {
    this.list.push(page);
    page.once('close', () => this.forget(page));
    page.on('crash', () => this.options.onCrash(page));
  }

  private tooMany(): ActionError {
    const max = this.options.maxTabs;
    return new ActionError(
      'ValueError',
      `new_tab: ${max} tab${max === 1 ? ' is' : 's are'} open, the most a session may have (the operator's --max-tabs); close one with tab_close() first`,
    );
  }

  private forget(page: Page): void {
    const index = this.list.indexOf(page);
    if (index === -1) return;
    this.list.splice(index, 1);
    if (this.activeIndex >= index && this.activeIndex > 0) this.activeIndex -= 1;
  }
}
