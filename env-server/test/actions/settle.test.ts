import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NAVIGATION_SETTLE_MS, settleAfterAction, watchNavigations } from '../../src/actions/settle/settle.js';
import { NAVIGATION_PROBE_KEY } from '../../src/browser/navigation-probe.js';
import { EFFECTS_PROBE_KEY, type EffectsProbe } from '../../src/browser/effects-probe.js';
import { PageDeadline } from '../../src/deadline/page-deadline.js';
import { FakeContext, useFakeContext } from './fake-context.js';
import { serveFixtures, type FixtureServer } from './fixture-server.js';

let server: FixtureServer;
let ctx: FakeContext;
let page: Page;

beforeAll(async () => {
  server = await serveFixtures();
});
afterAll(() => server.close());
useFakeContext(
  async (opened) => {
    ctx = opened;
    page = opened.activePage();
    await page.goto(server.url('one.html'));
  },
  () => ({ allowedOrigins: [server.origin] }),
);

/** True when the page's current document has been parsed (DOMContentLoaded has fired or is firing). */
const parsed = (p: Page) => p.evaluate(() => document.readyState !== 'loading');

describe('settling after an action', () => {
  it('waits for a navigation the click started, past the 500 ms action timeout, without clicking twice', async () => {
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await ctx.run('click', { bid: '1' });
    expect(await page.title()).toBe('Two');
    expect(await parsed(page)).toBe(true);
    expect(requests.filter((u) => u.includes('two.html'))).toHaveLength(1);
  });

  it('waits for a slow navigation even when the flush times out before its request is read', async () => {
    // A watch that has not read the request stands for a starved event loop: the flush's timer
    // fires before the browser's queued request event is read. The browser has begun the
    // navigation, so the page cannot answer until it commits, which the server holds back 900 ms.
    const unread = { started: new Map(), since: Date.now(), dispose: () => {} };
    const requested = page.waitForRequest((r) => r.url().endsWith('delay=900'));
    await page.evaluate(() => {
      location.href = 'two.html?delay=900';
    });
    await requested;
    await settleAfterAction(page, { watch: unread });
    expect(Date.now() - unread.since).toBeGreaterThanOrEqual(850);
    expect(Date.now() - unread.since).toBeLessThan(NAVIGATION_SETTLE_MS + 1500);
  });

  it('every document records when it asked to navigate away, unless a handler cancelled it', async () => {
    const requestedAt = () =>
      page.evaluate(
        (key) => (window as unknown as Record<symbol, () => number>)[Symbol.for(key)]!(),
        NAVIGATION_PROBE_KEY,
      );
    expect(await requestedAt()).toBe(0);
    await page.evaluate(() => history.pushState(null, '', '#same-document'));
    expect(await requestedAt()).toBe(0);
    await page.evaluate(() => {
      (window as unknown as { navigation: EventTarget }).navigation.addEventListener(
        'navigate',
        (e) => e.preventDefault(),
        { once: true },
      );
      location.href = 'two.html';
    });
    expect(await requestedAt()).toBe(0);
    const before = Date.now();
    const asked = await page.evaluate((key) => {
      location.href = 'two.html?delay=300';
      return (window as unknown as Record<symbol, () => number>)[Symbol.for(key)]!();
    }, NAVIGATION_PROBE_KEY);
    expect(asked).toBeGreaterThanOrEqual(before);
    expect(asked).toBeLessThanOrEqual(Date.now());
  });

  it('waits for a navigation a script starts just after the click', async () => {
    await ctx.run('click', { bid: '2' });
    expect(page.url()).toBe(server.url('two.html?delay=300'));
    expect(await page.title()).toBe('Two');
  });

  it('waits for a form submitted by pressing Enter', async () => {
    await ctx.run('fill', { bid: '5', value: 'cats' });
    await ctx.run('press', { bid: '5', key_comb: 'Enter' });
    expect(page.url()).toBe(server.url('two.html?q=cats'));
    expect(await page.title()).toBe('Two');
  });

  it('waits for a tab the click opened to load', async () => {
    const opened = ctx.context.waitForEvent('page');
    await ctx.run('click', { bid: '3' });
    const popup = await opened;
    expect(popup.url()).toBe(server.url('two.html?delay=200'));
    expect(await parsed(popup)).toBe(true);
  });

  it('gives up on a server that never answers after its budget, without an error', async () => {
    const started = Date.now();
    await ctx.run('click', { bid: '4' });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(NAVIGATION_SETTLE_MS - 50);
    expect(took).toBeLessThan(NAVIGATION_SETTLE_MS + 1500);
    expect(page.url()).toBe(server.url('one.html')); // still the committed document
  });

  it('costs one animation frame when the action started nothing', async () => {
    const watch = watchNavigations(ctx.context);
    const started = performance.now();
    await settleAfterAction(page, { watch });
    watch.dispose();
    expect(performance.now() - started).toBeLessThan(250);
  });

  it('stops at once when the step deadline aborts it', async () => {
    const watch = watchNavigations(ctx.context);
    await page.locator('[bid="4"]').click({ noWaitAfter: true });
    const deadline = new PageDeadline('the step');
    const settling = settleAfterAction(page, { watch, deadline });
    const reason = new Error('step deadline');
    deadline.abort(reason);
    await expect(settling).rejects.toBe(reason);
    watch.dispose();
  });
});

describe('the flush after an action waits task turns only for what runs in a later task', () => {
  const said = () => page.evaluate(() => [...document.querySelectorAll('#out p')].map((p) => p.textContent));
  const deferred = (since: number, horizonMs: number) =>
    page.evaluate(
      ([key, from, horizon]) =>
        (window as unknown as Record<symbol, EffectsProbe>)[Symbol.for(key)]!.deferredSince(from, horizon),
      [EFFECTS_PROBE_KEY, since, horizonMs] as const,
    );
  /** Clicks `bid` as an agent's action does; what the page said right after, and whether the probe saw later work. */
  async function click(bid: string) {
    const since = Date.now();
    await ctx.run('click', { bid });
    return { said: await said(), deferred: await deferred(since, 100) };
  }

  beforeEach(async () => {
    await page.goto(server.url('follow-ups.html'));
  });

  it('a click whose effects all ran inside it leaves nothing deferred', async () => {
    expect(await click('plain')).toEqual({ said: ['plain'], deferred: false });
  });

  it("a click handler's zero-delay timer has run by the time the action returns", async () => {
    expect((await click('zero')).said).toEqual(['zero']);
  });

  it.each([
    ['summary', 'details', "a <details>' toggle event"],
    ['hash', 'hashchange', "a fragment navigation's hashchange"],
    ['invoker', 'popover', "a popover's toggle event"],
  ])('%s: %s (%s) is taken for deferred work and has run by the time the action returns', async (bid, line) => {
    expect(await click(bid)).toEqual({ said: [line], deferred: true });
  });

  it('a timer counts while it is pending and due within the horizon', async () => {
    const since = Date.now();
    await ctx.run('click', { bid: 'far' });
    expect(await deferred(since, 100)).toBe(false);
    expect(await deferred(since, 5_000)).toBe(true);
    // Work begun before `since` is not this action's.
    expect(await deferred(Date.now() + 1, 5_000)).toBe(false);
  });

  it('a page that listens for scrolling keeps the turns (its handlers run at the next frame)', async () => {
    const since = Date.now();
    expect(await deferred(since, 100)).toBe(false);
    await page.evaluate(() => document.addEventListener('scroll', () => undefined));
    expect(await deferred(since, 100)).toBe(true);
  });
});
