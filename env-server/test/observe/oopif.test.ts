import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS, findChromium } from '../../src/browser/executable.js';
import { observePage } from '../../src/observe/observe.js';
import { waitForFrames } from './pages.js';

/**
 * Out-of-process iframes: with site isolation a cross-site frame lives in another renderer and
 * needs its own CDP session. The default test browser keeps frames in-process, so this file
 * launches one with --site-per-process.
 */
let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: findChromium().path,
    args: [...CHROMIUM_FLAGS, '--site-per-process'],
    headless: true,
  });
  const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
  await context.route('http://top.test/**', (r) =>
    r.fulfill({
      contentType: 'text/html',
      body: '<title>Top</title><button>top</button><iframe src="http://other.test/" style="margin-left:40px"></iframe>',
    }),
  );
  await context.route('http://other.test/**', (r) =>
    r.fulfill({
      contentType: 'text/html',
      body: '<title>Other</title><button style="margin:0">remote</button><iframe srcdoc="<a href=#x>deep</a>"></iframe>',
    }),
  );
  page = await context.newPage();
  await page.goto('http://top.test/');
  await waitForFrames(page, 3);
});
afterAll(async () => {
  await browser.close();
});

describe('out-of-process iframes', () => {
  it('marks, places and grafts their content like in-process frames', async () => {
    const seen = await observePage(page);
    expect(seen.axtree_txt).toContain("[a] Iframe ''\n\t\tRootWebArea 'Other'");
    expect(seen.axtree_txt).toContain("\t\t\t[a2] button 'remote'");
    expect(seen.axtree_txt).toContain("\t\t\t\t\t[aA2] link 'deep'");
    expect(seen.pruned_html).toContain('<iframe bid="a" src="http://other.test/" style="margin-left:40px">\n <head>');
    expect(seen.pruned_html).toContain(
      '\n <button bid="a2" style="margin:0">\n  remote\n </button>\n <iframe bid="aA"',
    );
    const frame = seen.extra_element_properties.a;
    const inner = seen.extra_element_properties.a2;
    // Inside the frame: its default 2px border, then the body's default 8px margin.
    expect(inner?.bbox?.[0]).toBeCloseTo((frame?.bbox?.[0] ?? NaN) + 10);
    expect(inner?.bbox?.[1]).toBeCloseTo((frame?.bbox?.[1] ?? NaN) + 10);
    expect(inner?.visibility).toBe(1);
  });
});
