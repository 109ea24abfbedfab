import type { Locator, Page } from 'playwright-core';

/**
 * A person at the keyboard: every input goes through the real mouse and keyboard of the page
 * (CDP input events, trusted like a human's), aimed at where an element is drawn — never
 * element.click() or a value set from script. Locators only find where to aim.
 */
export class Person {
  constructor(readonly page: Page) {}

  async click(target: Locator): Promise<void> {
    const box = await target.boundingBox();
    if (!box) throw new Error(`nothing drawn for ${target.toString()}`);
    await this.page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  }

  /** Two presses in quick succession, as the browser counts a double click (click, click, dblclick). */
  async doubleClick(target: Locator): Promise<void> {
    const box = await target.boundingBox();
    if (!box) throw new Error(`nothing drawn for ${target.toString()}`);
    await this.page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
  }

  /** Clicks into the field and types the text key by key. */
  async type(field: Locator, text: string): Promise<void> {
    await this.click(field);
    await this.page.keyboard.type(text);
  }

  /** Presses the mouse on `from`, moves it to `to` in steps, releases it there. */
  async drag(from: Locator, to: Locator): Promise<void> {
    const [a, b] = [await from.boundingBox(), await to.boundingBox()];
    if (!a || !b) throw new Error('nothing drawn to drag from or to');
    await this.page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
    await this.page.mouse.up();
  }

  press(key: string): Promise<void> {
    return this.page.keyboard.press(key);
  }

  /** The quoted words of the task's goal, as a person reads them. */
  async quoted(): Promise<string[]> {
    const goal = await this.page.locator('#query').innerText();
    return [...goal.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
  }
}
