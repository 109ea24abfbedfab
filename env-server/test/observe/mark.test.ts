import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useFreshPage } from '../support/browser.js';
import { markPage, resetBidCounters } from '../../src/observe/mark.js';
import { frameSegment, parseBid } from '../../src/observe/bid.js';
import { bidsInFrames, waitForFrames } from './pages.js';

let page: Page;
useFreshPage(
  (fresh) => {
    page = fresh;
  },
  { viewport: { width: 800, height: 600 } },
);

/** Bids of the elements matching `selector` in the main frame, in document order. */
const bidsOf = (selector: string) => page.locator(selector).evaluateAll((els) => els.map((e) => e.getAttribute('bid')));

describe('markPage: bids', () => {
  it('numbers elements in document order, skipping head, script and style', async () => {
    await page.setContent(
      '<head><title>t</title><style>p{}</style></head><body><p>a</p><script>1</script><div><span>b</span></div></body>',
    );
    await markPage(page);
    expect(await bidsOf('html, body, p, div, span')).toEqual(['0', '1', '2', '3', '4']);
    expect(await bidsOf('head, title, style, script')).toEqual([null, null, null, null]);
  });

  it('keeps bids across steps and gives new elements larger numbers', async () => {
    await page.setContent('<ul><li>one</li><li>two</li></ul>');
    await markPage(page);
    const before = await bidsOf('li');
    await page.evaluate(() => {
      const ul = document.querySelector('ul') as HTMLElement;
      ul.insertAdjacentHTML('afterbegin', '<li>zero</li>');
      ul.insertAdjacentHTML('beforeend', '<li>three</li>');
    });
    await markPage(page);
    const after = await bidsOf('li');
    expect(after.slice(1, 3)).toEqual(before);
    const largest = Math.max(...before.map(Number), Number(await bidsOf('ul').then((b) => b[0])));
    expect(Number(after[0])).toBeGreaterThan(largest);
    expect(Number(after[3])).toBeGreaterThan(Number(after[0]));
  });

  it('renumbers clones that copied a bid, even when the clone comes first', async () => {
    await page.setContent('<div id="box"><button>go</button></div>');
    await markPage(page);
    const [original] = await bidsOf('#box');
    await page.evaluate(() => {
      const box = document.querySelector('#box') as HTMLElement;
      const clone = box.cloneNode(true) as HTMLElement;
      clone.id = 'clone';
      box.before(clone);
    });
    await markPage(page);
    expect(await bidsOf('#box')).toEqual([original]);
    const all = await bidsOf('[bid]');
    expect(new Set(all).size).toBe(all.length);
  });

  it('replaces page-written bids that collide or do not fit the grammar', async () => {
    await page.setContent(
      '<p bid="5">a</p><p bid="5">b</p><p bid="x1">c</p><iframe bid="7" srcdoc="<b>in</b>"></iframe>',
    );
    await waitForFrames(page, 2);
    await markPage(page);
    const [first, second, third] = await bidsOf('p');
    expect(first).toBe('5');
    expect(Number(second)).toBeGreaterThan(5);
    expect(third).toMatch(/^\d+$/);
    expect(await bidsOf('iframe')).toEqual(['a']);
  });

  it('walks open shadow roots right after their host', async () => {
    await page.setContent(`<div id="host"><em>light</em></div><p>after</p>
      <script>document.querySelector('#host').attachShadow({ mode: 'open' }).innerHTML = '<b>shadow</b><slot></slot>';</script>`);
    await markPage(page);
    const [host] = await bidsOf('#host');
    const shadow = await page.locator('#host b').getAttribute('bid'); // Playwright's CSS pierces open roots
    const slot = await page.locator('#host slot').getAttribute('bid');
    expect([shadow, slot, ...(await bidsOf('em, p'))].map(Number)).toEqual([1, 2, 3, 4].map((d) => Number(host) + d));
  });

  it('prefixes frame content with letter bids that alternate case with depth', async () => {
    await page.setContent(`<button>top</button>
      <iframe srcdoc="<button>first</button><iframe srcdoc='<button>deep</button>'></iframe>"></iframe>
      <iframe srcdoc="<button>second</button>"></iframe>`);
    await waitForFrames(page, 4);
    const marks = await markPage(page);
    expect(marks.frames.map((f) => f.prefix)).toEqual(['', 'a', 'aA', 'b']);
    const buttons = await bidsInFrames(page, 'button');
    expect(buttons).toEqual({ '': ['2'], a: ['a2'], aA: ['aA2'], b: ['b2'] });
    expect(parseBid('aA2')?.framePath).toEqual(['a', 'aA']);
    // Follow the parsed path from the top: each frame element's content holds the next bid.
    const text = await page.frameLocator('[bid="a"]').frameLocator('[bid="aA"]').locator('[bid="aA2"]').textContent();
    expect(text).toBe('deep');
  });

  it('counts past z with two-letter frame bids that match frameSegment', async () => {
    await page.setContent(Array.from({ length: 28 }, (_, i) => `<iframe srcdoc="<i>${i}</i>"></iframe>`).join(''));
    await waitForFrames(page, 29);
    await markPage(page);
    expect(await bidsOf('iframe')).toEqual(Array.from({ length: 28 }, (_, i) => frameSegment(i, 0)));
    expect((await bidsInFrames(page, 'i')).ab).toEqual(['ab2']);
  });

  it('gives a cross-origin frame its prefix through the parent', async () => {
    await page
      .context()
      .route('http://top.test/**', (route) =>
        route.fulfill({ contentType: 'text/html', body: '<iframe src="http://other.test/"></iframe>' }),
      );
    await page
      .context()
      .route('http://other.test/**', (route) =>
        route.fulfill({ contentType: 'text/html', body: '<button>x</button>' }),
      );
    await page.goto('http://top.test/');
    await waitForFrames(page, 2);
    const marks = await markPage(page);
    expect(marks.frames.map((f) => f.prefix)).toEqual(['', 'a']);
    expect(await page.frames()[1]?.locator('button').getAttribute('bid')).toBe('a2');
  });

  it('resetBidCounters makes a re-render get the bids of a fresh page', async () => {
    const render = (seed: number) =>
      page.evaluate((n) => {
        document.body.innerHTML = `<form>${Array.from({ length: n }, (_, i) => `<label>f${i}</label><input name="f${i}">`).join('')}<iframe srcdoc="<i>x</i>"></iframe></form>`;
      }, seed);
    await page.setContent('<body></body>');
    await render(3);
    await waitForFrames(page, 2);
    await markPage(page);
    const first = await page.locator('[bid]').evaluateAll((els) => els.map((e) => e.getAttribute('bid')));
    await render(3);
    await waitForFrames(page, 2);
    await resetBidCounters(page);
    await markPage(page);
    const second = await page.locator('[bid]').evaluateAll((els) => els.map((e) => e.getAttribute('bid')));
    expect(second).toEqual(first);
  });
});
