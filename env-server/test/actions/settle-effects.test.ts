import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMART_HORIZON_MS, SMART_QUIET_MS, settleEffects } from '../../src/actions/settle/settle-effects.js';
import { EFFECTS_PROBE_KEY } from '../../src/browser/effects-probe.js';
import { PageDeadline } from '../../src/deadline/page-deadline.js';
import { useFakeContext } from './fake-context.js';
import { serveFixtures, type FixtureServer } from './fixture-server.js';

let server: FixtureServer;
let page: Page;

beforeAll(async () => {
  server = await serveFixtures();
});
afterAll(() => server.close());
useFakeContext(
  async (opened) => {
    page = opened.activePage();
    await page.goto(server.url('effects.html'));
  },
  () => ({ allowedOrigins: [server.origin] }),
);

/** Clicks `#id` as an action would, then settles the smart way; what the page said, and how. */
async function press(id: string) {
  const since = Date.now();
  await page.click(`#${id}`);
  const started = performance.now();
  const reports = await settleEffects(page, since, new PageDeadline());
  const tookMs = performance.now() - started;
  const said = await page.evaluate(() => [...document.querySelectorAll('#out p')].map((p) => p.textContent));
  return { said, tookMs, outcome: reports[0]?.outcome };
}

describe('the smart settle waits for what the action set in motion', () => {
  it('nothing pending: observed at once', async () => {
    const { said, outcome, tookMs } = await press('plain');
    expect(said).toEqual(['plain done']);
    expect(outcome).toBe('none');
    expect(tookMs).toBeLessThan(SMART_HORIZON_MS);
  });

  it.each([
    ['later', 'a 300 ms timer (jQuery UI autocomplete opens on one)'],
    ['chain', 'a timer set by a timer'],
    ['frame', 'animation frames'],
    ['fetch', 'a fetch and what its answer does'],
    ['xhr', 'an XMLHttpRequest'],
    ['transition', 'a CSS transition'],
    ['wrapped', 'a timer through a setTimeout the page wrapped after load'],
    ['throws', 'a timer whose callback throws'],
  ])('%s: %s', async (id) => {
    const { said, outcome } = await press(id);
    expect(said).toEqual([`${id} done`]);
    // `none` when it had all run before the settle asked (two frames may pass during the click).
    expect(outcome).not.toBe('bound');
  });

  it('a page starved right after the settle asks, longer than the horizon, as under CPU load', async () => {
    const since = Date.now();
    await page.click('#wrapped');
    const settling = settleEffects(page, since, new PageDeadline());
    // The settle's own checks come late, past the horizon, before the overdue timer had its turn;
    // and its answer comes later than the horizon after it was asked.
    const starved = page.evaluate((ms) => {
      const end = Date.now() + ms;
      while (Date.now() < end);
    }, 2 * SMART_HORIZON_MS);
    const [report] = await settling;
    // Read at once, as the observation does, not after the page is free again.
    const said = await page.evaluate(() => document.querySelector('#out')!.textContent);
    await starved;
    // What is observed is what counts: when the timer itself ran past the horizon, the settle
    // rightly reports `bound`.
    expect(said).toBe('wrapped done');
    expect(report?.outcome).toBeDefined();
  });

  it('a timer in a shadow tree, and the DOM change it makes there', async () => {
    const since = Date.now();
    await page.click('#shadow');
    const [report] = await settleEffects(page, since, new PageDeadline());
    expect(report?.outcome).toBe('quiet');
    expect(await page.locator('#host').evaluate((host) => host.shadowRoot!.textContent)).toContain('shadow done');
  });

  it('a page cannot replace the probe or fake its answer', async () => {
    const replaced = await page.evaluate((key) => {
      const own = window as unknown as Record<symbol, unknown>;
      const fake = { settle: () => ({ outcome: 'none', waitedMs: 0 }) };
      try {
        own[Symbol.for(key)] = fake;
        Object.defineProperty(window, Symbol.for(key), { value: fake });
      } catch {
        // non-configurable: refused
      }
      return own[Symbol.for(key)] === fake;
    }, EFFECTS_PROBE_KEY);
    expect(replaced).toBe(false);
    const { said, outcome } = await press('later');
    expect(said).toEqual(['later done']);
    expect(outcome).toBe('quiet');
  });

  it('does not wait for a timer due past the horizon, a cleared one, or an infinite animation', async () => {
    for (const id of ['far', 'cleared']) {
      const { said, outcome, tookMs } = await press(id);
      expect(said, id).toEqual([]);
      expect(outcome, id).toBe('none');
      expect(tookMs, id).toBeLessThan(SMART_HORIZON_MS);
    }
  });

  it('a loop that never ends is waited for only a few links deep; an interval only to its first tick', async () => {
    const poll = await press('poll');
    expect(poll.outcome).not.toBe('bound');
    expect(poll.tookMs).toBeLessThan(SMART_HORIZON_MS);
    const interval = await press('interval');
    expect(interval.said).toEqual(['poll started', 'interval started']);
    // The 50 ms ticks keep changing the DOM, but they come further apart than the quiet window.
    expect(SMART_QUIET_MS).toBeLessThan(50);
    expect(interval.outcome).toBe('quiet');
    expect(interval.tookMs).toBeLessThan(SMART_HORIZON_MS);
  });

  it('ends at the horizon when the page keeps changing, and at once when the deadline ends', async () => {
    await page.evaluate(() => {
      const box = document.getElementById('box')!;
      const spin = () => {
        box.dataset.t = String(performance.now());
        requestAnimationFrame(spin);
      };
      document.getElementById('plain')!.onclick = () => requestAnimationFrame(spin);
    });
    const busy = await press('plain');
    expect(busy.outcome).toBe('bound');
    expect(busy.tookMs).toBeGreaterThanOrEqual(SMART_HORIZON_MS - 20);
    const deadline = new PageDeadline('the step');
    const since = Date.now();
    await page.click('#later');
    const settling = settleEffects(page, since, deadline);
    const reason = new Error('step deadline');
    deadline.abort(reason);
    await expect(settling).rejects.toBe(reason);
  });
});
