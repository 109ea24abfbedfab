import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ElementProperties } from '@gauntlet/proto';
import { launchTestBrowser } from '../support/browser.js';
import { observePage } from '../../src/observe/observe.js';
import { PageDeadline } from '../../src/deadline/page-deadline.js';
import { markPage, resetBidCounters } from '../../src/observe/mark.js';
import { prunedHtml } from '../../src/observe/html.js';

let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await launchTestBrowser();
  page = await browser.newPage({ viewport: { width: 640, height: 480 } });
  await page.setContent(`<title>Form</title><label for="q">Search</label><input id="q"><button>Go</button>`);
  await page.locator('#q').fill('cats');
  await page.locator('#q').focus();
});
afterAll(async () => {
  await browser.close();
});

describe('observePage', () => {
  it('computes every default part, with a timing for each', async () => {
    const seen = await observePage(page);
    const input = await page.locator('#q').getAttribute('bid');
    expect(seen.title).toBe('Form');
    expect(seen.url).toBe('about:blank');
    expect(seen.focused_element_bid).toBe(input);
    expect(seen.axtree_txt).toContain(`[${input}] textbox 'Search' value='cats', focused`);
    expect(seen.pruned_html).toContain(`<input bid="${input}" id="q" value="cats"/>`);
    for (const props of Object.values(seen.extra_element_properties)) ElementProperties.parse(props);
    expect(seen.screenshot).toBeNull();
    expect(seen.screenshot_encoded).toBeUndefined();
    expect(Object.keys(seen.timings).sort()).toEqual(['axtree', 'mark', 'pruned_html', 'total']);
  });

  it('serializes HTML inside the marking pass exactly as a separate pass would', async () => {
    const folded = (await observePage(page, { axtree: false, extra_properties: false })).pruned_html;
    const separate = await prunedHtml(await markPage(page, { properties: false }));
    expect(folded).toBe(separate);
    expect(folded).toContain('value="cats"');
  });

  it('skips the parts switched off', async () => {
    const seen = await observePage(page, { axtree: false, pruned_html: false, extra_properties: false });
    expect([seen.axtree_txt, seen.pruned_html, seen.extra_element_properties]).toEqual(['', '', {}]);
    expect(seen.focused_element_bid).not.toBe('');
    expect(Object.keys(seen.timings).sort()).toEqual(['mark', 'total']);
  });

  it('measures elements for AXTree extras even when extra properties are not returned', async () => {
    const seen = await observePage(page, {
      extra_properties: false,
      pruned_html: false,
      axtreeExtras: { visible: true, clickable: true },
    });
    expect(seen.axtree_txt).toMatch(/button 'Go', clickable, visible/);
    expect(seen.extra_element_properties).toEqual({});
  });

  it('adds the screenshot asked for', async () => {
    const rgb = await observePage(page, { axtree: false, pruned_html: false, screenshot: 'rgb' });
    expect([rgb.screenshot?.length, rgb.screenshot?.[0]?.length]).toEqual([480, 640]);
    const jpeg = await observePage(page, { axtree: false, pruned_html: false, screenshot: 'jpeg', jpegQuality: 50 });
    expect(jpeg.screenshot).toBeNull();
    expect(jpeg.screenshot_encoded).toMatchObject({ format: 'jpeg', width: 640, height: 480 });
    expect(jpeg.timings.screenshot).toBeGreaterThan(0);
  });

  it('observes a re-render after resetBidCounters exactly like a fresh page', async () => {
    const other = await browser.newPage({ viewport: { width: 640, height: 480 } });
    try {
      const render = (target: Page) =>
        target.setContent('<h1>Task</h1><ul><li><button>a</button></li><li><button>b</button></li></ul>');
      await render(other);
      const fresh = await observePage(other, { extra_properties: false });
      await other.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<p>noise from the last episode</p>'));
      await observePage(other);
      await render(other);
      await resetBidCounters(other);
      const again = await observePage(other, { extra_properties: false });
      expect([again.axtree_txt, again.pruned_html]).toEqual([fresh.axtree_txt, fresh.pruned_html]);
    } finally {
      await other.close();
    }
  });

  it('survives a navigation that the observation itself sets off', async () => {
    const other = await browser.newPage();
    try {
      // Page A leaves as soon as it sees a bid, racing the rest of the observation.
      await other.route('http://nav.test/a', (r) =>
        r.fulfill({
          contentType: 'text/html',
          body: `<title>A</title><p>Page A</p><script>
        new MutationObserver(() => { location.href = '/b'; }).observe(document.body, { attributes: true, subtree: true });</script>`,
        }),
      );
      await other.route('http://nav.test/b', (r) =>
        r.fulfill({ contentType: 'text/html', body: '<title>B</title><p>Page B</p>' }),
      );
      await other.goto('http://nav.test/a');
      // Which document the racing observation sees is up to the race; that it completes is not.
      const raced = await observePage(other);
      expect(['http://nav.test/a', 'http://nav.test/b']).toContain(raced.url);
      await other.waitForURL('http://nav.test/b');
      expect((await observePage(other)).axtree_txt).toContain("RootWebArea 'B'");
    } finally {
      await other.close();
    }
  });

  it('stops waiting when the deadline ends', async () => {
    const deadline = new PageDeadline('the step');
    deadline.abort(new Error('step deadline passed'));
    await expect(observePage(page, { deadline })).rejects.toThrow('step deadline passed');
  });
});
