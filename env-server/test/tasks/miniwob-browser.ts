import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TASK_ORIGIN } from '../../src/browser/site.js';
import { miniwobSite } from '../../src/tasks/miniwob/index.js';

/** A context whose TASK_ORIGIN is answered from `miniwobSite` (unknown paths: 404), no network. */
export async function openMiniwobContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.route(`${TASK_ORIGIN}/**`, (route) => {
    const asset = miniwobSite.get(new URL(route.request().url()).pathname);
    if (!asset) return route.fulfill({ status: 404, body: 'not found' });
    return route.fulfill({
      body: typeof asset.body === 'string' ? asset.body : Buffer.from(asset.body),
      contentType: asset.contentType,
    });
  });
  return context;
}

/** A page that records uncaught page errors, so a broken page script fails the test loudly. */
export async function openWatchedPage(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}
