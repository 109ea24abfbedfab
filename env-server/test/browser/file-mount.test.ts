import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { installSiteRoutes } from '../../src/browser/routes.js';
import { TASK_ORIGIN } from '../../src/browser/site.js';
import { launchTestBrowser } from '../support/browser.js';

// A folder served on the task origin (real MiniWoB++ from disk) answers its own files only.
const top = mkdtempSync(join(tmpdir(), 'gauntlet-mount-'));
const root = join(top, 'html');
mkdirSync(join(root, 'miniwob'), { recursive: true });
mkdirSync(join(root, 'core'));
writeFileSync(join(root, 'miniwob', 'page.html'), '<script src="../core/core.js"></script><p>page</p>');
writeFileSync(join(root, 'core', 'core.js'), 'window.coreLoaded = true;');
writeFileSync(join(top, 'secret.txt'), 'outside the mount');
symlinkSync(join(top, 'secret.txt'), join(root, 'escape.txt'));

let browser: Browser;
let context: BrowserContext;
let page: Page;
beforeAll(async () => {
  browser = await launchTestBrowser();
  context = await browser.newContext();
  await installSiteRoutes(context, new Map(), { extra: [] }, [{ prefix: '/mounted/', root }]);
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  rmSync(top, { recursive: true, force: true });
});

it('serves pages and what they load relative to them, with content types', async () => {
  const response = await page.goto(`${TASK_ORIGIN}/mounted/miniwob/page.html`);
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-type']).toMatch(/^text\/html/);
  expect(await page.evaluate(() => (window as Window & { coreLoaded?: boolean }).coreLoaded)).toBe(true);
});

it('answers 404 for missing files, escaped dot-dots and symlinks that leave the folder', async () => {
  const status = (path: string) =>
    page.evaluate(async (url) => (await fetch(url)).status, `${TASK_ORIGIN}/mounted/${path}`);
  expect(await status('miniwob/none.html')).toBe(404);
  expect(await status('%2e%2e/secret.txt')).toBe(404);
  expect(await status('miniwob/%2e%2e%2f%2e%2e%2fsecret.txt')).toBe(404);
  expect(await status('escape.txt')).toBe(404);
  expect(await status('%E0%A4%A')).toBe(404);
  expect(await status('core/core.js')).toBe(200);
});
