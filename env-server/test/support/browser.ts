import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { CHROMIUM_FLAGS, findChromium } from '../../src/browser/executable.js';

/** A real headless Chromium for integration tests (one per test file; close it in afterAll). */
export async function launchTestBrowser(): Promise<Browser> {
  const { path } = findChromium();
  return chromium.launch({ executablePath: path, args: CHROMIUM_FLAGS, headless: true });
}

/**
 * One real Chromium for the test file and a fresh context + page for each test (closed after
 * it); `onEach` receives the page.
 */
export function useFreshPage(onEach: (page: Page) => void, options: BrowserContextOptions = {}): void {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    browser = await launchTestBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    context = await browser!.newContext(options);
    onEach(await context.newPage());
  });
  afterEach(async () => {
    await context?.close();
  });
}
