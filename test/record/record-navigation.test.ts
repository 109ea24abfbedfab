import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEnvClient } from '@gauntlet/proto/client';
import { agent } from '../../agent/test/support/agent.js';
import { startWebSite, type WebSite } from '../../agent/test/support/web-site.js';
import { ACTION, demonstrate, startHeadedEnv, type HeadedEnv } from './recording.js';

// Navigation outside the page: the person types a URL into the address bar and uses the
// browser's back and forward. The browser UI of a headed window cannot be driven from here
// (Playwright's keyboard reaches the page, not the omnibox or Alt+Left), so the test goes
// through the same browser-side CDP commands the UI ends in: Page.navigate with transitionType
// 'typed' (an omnibox entry), and Page.navigateToHistoryEntry (the back/forward buttons). The
// link the person clicks first is the page's navigation: recorded as the click alone.
const dir = mkdtempSync(join(tmpdir(), 'agent-record-nav-'));
let site: WebSite;
let headed: HeadedEnv;
beforeAll(async () => {
  site = await startWebSite();
  headed = await startHeadedEnv(['--allow-origin', site.origin]);
}, 120_000);
afterAll(async () => {
  await headed?.stop();
  await site?.close();
});

/** Moves the headed tab one entry through its history, as the back (-1) or forward (+1) button does. */
async function historyButton(page: Page, by: -1 | 1): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { currentIndex, entries } = await cdp.send('Page.getNavigationHistory');
    await cdp.send('Page.navigateToHistoryEntry', { entryId: entries[currentIndex + by]!.id });
  } finally {
    await cdp.detach();
  }
}

/** Runs `act`; if it fails, the error also lists the tab's history (id, transition type, URL) as the browser has it. */
async function withHistory(page: Page, act: () => Promise<void>): Promise<void> {
  try {
    await act();
  } catch (error) {
    const cdp = await page.context().newCDPSession(page);
    const { currentIndex, entries } = await cdp.send('Page.getNavigationHistory').finally(() => cdp.detach());
    const shown = entries.map((e, i) => `${i === currentIndex ? '>' : ' '} ${e.id} ${e.transitionType} ${e.url}`);
    if (error instanceof Error) error.message += `\nthe tab's history:\n${shown.join('\n')}`;
    throw error;
  }
}

it('address-bar URLs and back/forward become goto, go_back and go_forward; a link stays one click', async () => {
  const out = join(dir, 'nav');
  const start = `${site.origin}/`;
  const counter = `${site.origin}/counter`;
  const { demo, lines } = await demonstrate(
    headed,
    { web: ['--url', start, '--goal', 'Open the counter'], out },
    async (person, page, lines, stop) =>
      withHistory(page, async () => {
        await person.click(page.getByRole('link', { name: 'Place order' }));
        await lines.until(ACTION, 1);
        // The link's page has committed (what a person waits for) before the address bar is used.
        await page.waitForURL(`${site.origin}/order`);
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Page.navigate', { url: counter, transitionType: 'typed' });
        await cdp.detach();
        await lines.until(/#1 goto\(/);
        await historyButton(page, -1);
        await lines.until(/#2 go_back\(\)/);
        await historyButton(page, 1);
        await lines.until(/#3 go_forward\(\)/);
        stop.abort();
      }),
  );
  expect(lines.all.at(-1)).toMatch(/recorded 4 action\(s\), reward 0/);
  expect(demo.steps.map((s) => s.action)).toEqual([
    expect.stringMatching(/^click\('\w+'\)$/),
    `goto('${counter}')`,
    'go_back()',
    'go_forward()',
  ]);
  // Each step carries the page before it: the order page before the typed URL and before forward.
  expect(demo.steps.map((s) => s.observation.url)).toEqual([
    start,
    `${site.origin}/order`,
    counter,
    `${site.origin}/order`,
  ]);

  const replay = await agent(['record', '--replay', join(out, 'demo.json'), '--env', headed.env.url]);
  expect(replay.code, replay.err.join('\n')).toBe(0);
  expect(replay.out.at(-1)).toMatch(/^faithful: replay reward 0, recorded 0 — web seed 0/);
  // Replayed on a fresh episode, the actions end on the page the person ended on.
  const env = createEnvClient(headed.env.url);
  try {
    await env.reset({ task_name: demo.task, seed: demo.seed, options: demo.web! });
    let url = '';
    for (const step of demo.steps) {
      const result = await env.step(step.action);
      expect(result.observation.metadata.browsergym_obs.last_action_error).toBe('');
      url = result.observation.url;
    }
    expect(url).toBe(counter);
  } finally {
    await env.close();
  }
}, 180_000);
