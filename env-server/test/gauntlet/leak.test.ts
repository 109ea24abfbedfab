import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { installSiteRoutes } from '../../src/browser/routes.js';
import { observePage } from '../../src/observe/observe.js';
import type { ChallengeType } from '../../src/tasks/gauntlet/categories.js';
import { CHALLENGE_TYPES } from '../../src/tasks/gauntlet/challenges/index.js';
import { planRun } from '../../src/tasks/gauntlet/plan.js';
import { TaskRegistry } from '../../src/tasks/registry.js';
import { builtinFamilies } from '../../src/tasks/families.js';
import { launchTestBrowser } from '../support/browser.js';
import { fullMarkup } from './support.js';

// No code may exist in the page (AXTree, pruned HTML — which keeps hidden elements — or the
// markup of every frame and shadow root) before its puzzle is solved. Checked on every type
// right after setup, once the page's asynchronous parts (frames, media) have loaded.
const SEEDS = Array.from({ length: 20 }, (_, i) => 7 + i * 13);
/** Status text that says a type's page finished loading its asynchronous parts. */
const LOADED: Partial<Record<ChallengeType, RegExp>> = { iframe: /All frames loaded/, video: /Video time/ };
/** Type ids that are not also ordinary words or ARIA roles (slider, iframe, canvas, … are both). */
const MULTI_WORD_TYPES = CHALLENGE_TYPES.filter((type) => type.includes('_'));

const registry = new TaskRegistry(builtinFamilies());
let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await launchTestBrowser();
  const context = await browser.newContext();
  await installSiteRoutes(context, registry.site, { extra: [] });
  page = await context.newPage();
});
afterAll(() => browser.close());

async function settle(type: ChallengeType): Promise<void> {
  const ready = LOADED[type];
  if (ready)
    await page.waitForFunction((source) => new RegExp(source).test(document.body.innerText), ready.source, {
      timeout: 5000,
    });
}

async function expectHidden(codes: string[], label: string): Promise<void> {
  const seen = await observePage(page, { axtree: true, pruned_html: true, extra_properties: false });
  const markup = (await fullMarkup(page)).toLowerCase();
  for (const code of codes) {
    const lower = code.toLowerCase();
    expect(seen.axtree_txt.toLowerCase().includes(lower), `${label}: ${code} in the AXTree`).toBe(false);
    expect(seen.pruned_html.toLowerCase().includes(lower), `${label}: ${code} in the pruned HTML`).toBe(false);
    expect(markup.includes(lower), `${label}: ${code} in the markup`).toBe(false);
  }
}

/** The page never names its challenge type: not in the heading, the title, a class or any text. */
async function expectNoTypeName(type: ChallengeType, label: string): Promise<void> {
  const heading = (await page.locator('h2').innerText()).toLowerCase();
  expect(heading, `${label}: heading`).not.toContain(type.replace(/_/g, ' '));
  expect(heading, `${label}: heading`).not.toContain(type);
  const seen = await observePage(page, { axtree: true, pruned_html: true, extra_properties: false });
  const markup = await fullMarkup(page);
  for (const name of MULTI_WORD_TYPES) {
    for (const [view, text] of [
      ['AXTree', seen.axtree_txt],
      ['pruned HTML', seen.pruned_html],
      ['markup', markup],
    ] as const)
      expect(text.includes(name), `${label}: "${name}" in the ${view}`).toBe(false);
  }
}

describe('codes stay out of the page until solved', () => {
  it.each(CHALLENGE_TYPES)(`gauntlet:%s on ${SEEDS.length} seeds`, async (type) => {
    const task = registry.resolve(`gauntlet:${type}`);
    for (const seed of SEEDS) {
      await task.setup(page, seed, {});
      await settle(type);
      await expectHidden([planRun(seed, type).steps[0]!.code], `${type} seed ${seed}`);
      await expectNoTypeName(type, `${type} seed ${seed}`);
    }
  });

  it('sees a code once its puzzle is solved (the check can fail)', async () => {
    await registry.resolve('gauntlet:click_sequence').setup(page, 3, {});
    const order = /in this order: (.*)\. A wrong/.exec(await page.innerText('body'))![1]!.match(/"[^"]+"/g)!;
    for (const name of order) await page.getByRole('button', { name: JSON.parse(name) as string, exact: true }).click();
    await expect(expectHidden([planRun(3, 'click_sequence').steps[0]!.code], 'solved')).rejects.toThrow(
      /in the AXTree/,
    );
  });

  it('the full run shows none of its 30 codes on step 1', async () => {
    const task = registry.resolve('gauntlet');
    for (const seed of SEEDS.slice(0, 5)) {
      const plan = planRun(seed);
      await task.setup(page, seed, {});
      await settle(plan.steps[0]!.type);
      await expectHidden(
        plan.steps.map((s) => s.code),
        `gauntlet seed ${seed}`,
      );
    }
  });
});
