import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_FLAGS, findChromium } from '../../src/browser/executable.js';

/** A real headless Chromium for integration tests (one per test file; close it in afterAll). */
export async function launchTestBrowser(): Promise<Browser> {
  const { path } = findChromium();
  return chromium.launch({ executablePath: path, args: CHROMIUM_FLAGS, headless: true });
}
