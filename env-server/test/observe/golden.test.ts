import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchTestBrowser } from '../support/browser.js';
import { observePage, type ObserveOptions } from '../../src/observe/observe.js';

/**
 * AXTree and pruned HTML of real pages against reviewed golden files. Set UPDATE_GOLDEN=1 to
 * rewrite them, then read the diff before committing: the goldens are the format's spec.
 */
const FIXTURES = fileURLToPath(new URL('../fixtures/observe/', import.meta.url));
const ORIGIN = 'http://gauntlet.test/';
const UPDATE = process.env.UPDATE_GOLDEN === '1';

let browser: Browser;
let context: BrowserContext;
beforeAll(async () => {
  browser = await launchTestBrowser();
  context = await browser.newContext({ viewport: { width: 800, height: 600 } });
  await context.route(`${ORIGIN}**`, (route) => {
    const file = join(FIXTURES, new URL(route.request().url()).pathname);
    if (!existsSync(file)) return route.fulfill({ status: 404, body: 'not found' });
    return route.fulfill({ contentType: 'text/html; charset=utf-8', body: readFileSync(file, 'utf8') });
  });
});
afterAll(async () => {
  await browser.close();
});

function matchGolden(name: string, actual: string): void {
  const file = join(FIXTURES, name);
  if (UPDATE) writeFileSync(file, `${actual}\n`);
  if (!existsSync(file)) throw new Error(`missing golden ${name}: run with UPDATE_GOLDEN=1 and review it`);
  expect(actual).toBe(readFileSync(file, 'utf8').replace(/\n$/, ''));
}

const CASES: { page: string; golden: string; options?: ObserveOptions }[] = [
  { page: 'login.html', golden: 'login' },
  {
    page: 'login.html',
    golden: 'login-extras',
    options: { axtreeExtras: { clickable: true, visible: true, som: true } },
  },
  { page: 'frames-shadow.html', golden: 'frames-shadow' },
  { page: 'list-table.html', golden: 'list-table' },
];

describe('golden observations', () => {
  it.each(CASES)('$golden', async ({ page: path, golden, options }) => {
    const page = await context.newPage();
    try {
      await page.goto(ORIGIN + path); // resolves on load, which waits for every iframe's load
      const observed = await observePage(page, options);
      matchGolden(`${golden}.axtree.txt`, observed.axtree_txt);
      if (!options) matchGolden(`${golden}.pruned-html.txt`, observed.pruned_html);
    } finally {
      await page.close();
    }
  });
});
