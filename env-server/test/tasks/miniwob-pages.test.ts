import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { miniwobTasks } from '../../src/tasks/miniwob/index.js';
import type { TaskDefinition } from '../../src/tasks/task.js';
import { launchTestBrowser } from '../support/browser.js';
import { openMiniwobContext, openWatchedPage } from './miniwob-browser.js';

const SEEDS = Array.from({ length: 20 }, (_, i) => i);

let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  browser = await launchTestBrowser();
  context = await openMiniwobContext(browser);
});
afterAll(async () => {
  await browser?.close();
});

function task(name: string): TaskDefinition {
  const found = miniwobTasks.find((t) => t.name === name);
  if (!found) throw new Error(`no task ${name}`);
  return found;
}

const pageHtml = (page: Page): Promise<string> => page.evaluate(() => document.documentElement.outerHTML);

describe.each(miniwobTasks.map((t) => [t.name, t] as const))('%s page', (_name, t) => {
  it('draws the same DOM for the same seed, in place or on a fresh page', async () => {
    const first = await openWatchedPage(context);
    await t.setup(first.page, 7, {});
    const drawn = await pageHtml(first.page);
    await t.setup(first.page, 8, {});
    await t.setup(first.page, 7, {});
    const again = await pageHtml(first.page);
    const fresh = await openWatchedPage(context);
    await t.setup(fresh.page, 7, {});
    expect(again).toBe(drawn);
    expect(await pageHtml(fresh.page)).toBe(drawn);
    expect([...first.errors, ...fresh.errors]).toEqual([]);
    await Promise.all([first.page.close(), fresh.page.close()]);
  });

  it(`draws ${SEEDS.length} different pages for ${SEEDS.length} seeds, each inside the 160×210 box`, async () => {
    const { page, errors } = await openWatchedPage(context);
    const pages = new Set<string>();
    for (const seed of SEEDS) {
      await t.setup(page, seed, {});
      pages.add(await pageHtml(page));
      const outside = await page.evaluate(() => {
        const area = document.getElementById('area')!.getBoundingClientRect();
        return Array.from(document.querySelectorAll('#area button, #area a, #area input, #area label'))
          .filter((el) => {
            const box = el.getBoundingClientRect();
            return box.left < area.left || box.top < area.top || box.right > area.right || box.bottom > area.bottom;
          })
          .map((el) => el.outerHTML);
      });
      expect({ seed, outside }).toEqual({ seed, outside: [] });
    }
    expect(pages.size).toBe(SEEDS.length);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('wrong actions end the episode with raw reward -1', () => {
  it('click-button: another button loses, and a later right click cannot undo it', async () => {
    const { page } = await openWatchedPage(context);
    const episode = await task('click-button').setup(page, 11, {});
    const target = /"(.+)"/.exec(episode.goal)![1]!;
    await page.locator('#area button').filter({ hasNotText: target }).first().click();
    await page.getByRole('button', { name: target, exact: true }).click();
    expect(await episode.status(page)).toMatchObject({ rawReward: -1, done: true });
    await page.close();
  });

  it('click-link: another link loses and the page does not navigate', async () => {
    const { page } = await openWatchedPage(context);
    const episode = await task('click-link').setup(page, 12, {});
    const target = /"(.+)"/.exec(episode.goal)![1]!;
    const before = page.url();
    await page.locator('#area a').filter({ hasNotText: target }).first().click();
    expect(await episode.status(page)).toMatchObject({ rawReward: -1, done: true });
    expect(page.url()).toBe(before);
    await page.close();
  });

  it('enter-text: a partial answer loses (exact match, as in MiniWoB)', async () => {
    const { page } = await openWatchedPage(context);
    const episode = await task('enter-text').setup(page, 13, {});
    const text = /"(.+)"/.exec(episode.goal)![1]!;
    await page.locator('#tt').fill(text.slice(0, -1));
    await page.getByRole('button', { name: 'Submit' }).click();
    expect(await episode.status(page)).toMatchObject({ rawReward: -1, done: true });
    await page.close();
  });

  it('login-user: right username with a wrong password loses', async () => {
    const { page } = await openWatchedPage(context);
    const episode = await task('login-user').setup(page, 14, {});
    const [username] = [...episode.goal.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
    await page.getByRole('textbox', { name: 'Username' }).fill(username!);
    await page.getByRole('textbox', { name: 'Password' }).fill('not-it');
    await page.getByRole('button', { name: 'Login' }).click();
    expect(await episode.status(page)).toEqual({ rawReward: -1, done: true, reason: 'wrong password' });
    await page.close();
  });

  it('click-test has no losing click: clicking off the button leaves the episode running', async () => {
    const { page } = await openWatchedPage(context);
    const episode = await task('click-test').setup(page, 15, {});
    await page.locator('#query').click();
    expect(await episode.status(page)).toMatchObject({ rawReward: 0, done: false });
    await page.close();
  });
});

describe('reset in place', () => {
  it('re-seeds many times without a reload and starts each episode fresh', async () => {
    const t = task('click-test');
    const { page, errors } = await openWatchedPage(context);
    await t.setup(page, 0, {});
    await page.evaluate(() => Object.assign(window, { survivesReset: 'yes' }));
    const documentStart = await page.evaluate(() => performance.timeOrigin);
    for (let seed = 1; seed <= 50; seed++) {
      const episode = await t.setup(page, seed, {});
      expect(await episode.status(page)).toEqual({ rawReward: 0, done: false, reason: 'in progress' });
      if (seed % 10 === 0) {
        await page.getByRole('button', { name: 'Click Me!' }).click();
        expect(await episode.status(page)).toMatchObject({ rawReward: 1, done: true });
      }
    }
    const after = await page.evaluate(() => ({
      marker: (window as Window & { survivesReset?: string }).survivesReset,
      // A new document (reload or navigation) would get a new time origin.
      timeOrigin: performance.timeOrigin,
    }));
    expect(after).toEqual({ marker: 'yes', timeOrigin: documentStart });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('reports how long a reset takes (in the page and through setup)', async () => {
    const { page } = await openWatchedPage(context);
    for (const t of miniwobTasks) {
      await t.setup(page, 0, {});
      const inPageMs = await page.evaluate(() => {
        const runtime = (window as Window & { gauntletTask?: { reset(seed: number): unknown } }).gauntletTask!;
        const start = performance.now();
        for (let seed = 1; seed <= 200; seed++) runtime.reset(seed);
        return (performance.now() - start) / 200;
      });
      const start = performance.now();
      for (let seed = 1; seed <= 50; seed++) await t.setup(page, seed, {});
      const setupMs = (performance.now() - start) / 50;
      console.info(`${t.name}: reset ${inPageMs.toFixed(3)} ms in page, setup (round trip) ${setupMs.toFixed(2)} ms`);
      expect(inPageMs).toBeGreaterThanOrEqual(0);
    }
    await page.close();
  });

  it('status says "not on the task page" after the agent navigates away; setup brings it back', async () => {
    const t = task('enter-text');
    const { page } = await openWatchedPage(context);
    const episode = await t.setup(page, 3, {});
    await page.goto('about:blank');
    expect(await episode.status(page)).toMatchObject({
      rawReward: 0,
      done: false,
      reason: 'not on the task page (about:blank)',
    });
    const { goal } = await t.setup(page, 3, {});
    expect(goal).toMatch(/^Enter ".+" into the text field and press Submit\.$/);
    await page.close();
  });
});
