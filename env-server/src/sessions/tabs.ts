import type { BrowserContext, Page } from 'playwright-core';

/** The open tabs of one session, in order, and which one actions address. */
export class Tabs {
  private list: Page[];
  private activeIndex = 0;

  constructor(private readonly context: BrowserContext, first: Page) {
    this.list = [first];
    // Pages opened by the page itself (window.open, target=_blank) become tabs too.
    context.on('page', (page) => {
      if (!this.list.includes(page)) {
        this.list.push(page);
        page.once('close', () => this.forget(page));
      }
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
    const page = await this.context.newPage();
    if (!this.list.includes(page)) this.list.push(page);
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

  private forget(page: Page): void {
    const index = this.list.indexOf(page);
    if (index === -1) return;
    this.list.splice(index, 1);
    if (this.activeIndex >= index && this.activeIndex > 0) this.activeIndex -= 1;
  }
}
