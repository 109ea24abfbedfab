import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { miniwobTasks } from '../../src/tasks/miniwob/index.js';
import { launchTestBrowser } from '../support/browser.js';
import { miniObserve } from './mini-observe.js';
import { openMiniwobContext, openWatchedPage } from './miniwob-browser.js';
import { runOracleAction } from './oracle-action.js';

const SEEDS = Array.from({ length: 20 }, (_, i) => i * 7919 + 3);
/** The fewest actions each task needs; the oracle should never take more. */
const EXPECTED_STEPS: Record<string, number> = {
  'click-test': 1,
  'click-button': 1,
  'click-link': 1,
  'enter-text': 2,
  'login-user': 3,
};

let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  browser = await launchTestBrowser();
  context = await openMiniwobContext(browser);
});
afterAll(async () => {
  await browser?.close();
});

describe.each(miniwobTasks.map((task) => [task.name, task] as const))('%s oracle', (name, task) => {
  it(`solves ${SEEDS.length} seeds in ${EXPECTED_STEPS[name]} step(s) each, re-seeding one page in place`, async () => {
    const { page, errors } = await openWatchedPage(context);
    for (const seed of SEEDS) {
      const { goal } = await task.setup(page, seed, {});
      const actions: string[] = [];
      let status = await task.status(page);
      while (!status.done && actions.length < task.maxSteps) {
        const action = task.oracle(await miniObserve(page, goal));
        actions.push(action);
        await runOracleAction(page, action);
        status = await task.status(page);
      }
      expect({ seed, goal, actions, status }).toMatchObject({ status: { rawReward: 1, done: true } });
      expect(actions).toHaveLength(EXPECTED_STEPS[name]!);
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});
