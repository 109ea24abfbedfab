import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode } from 'fast-png';
import type { Browser, Page } from 'playwright-core';
import { launchTestBrowser } from '../support/browser.js';
import { imageSize, screenshotEncoded, screenshotRgb } from '../../src/observe/screenshot.js';
import { observePage } from '../../src/observe/observe.js';

let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await launchTestBrowser();
  page = await browser.newPage({ viewport: { width: 320, height: 240 } });
  // Left half pure red, right half pure blue: pixel values are exact, whatever the encoder.
  await page.setContent(`<style>html, body { margin: 0; height: 100% } div { float: left; width: 50%; height: 100% }</style>
    <div style="background:#ff0000"></div><div style="background:#0000ff"></div>`);
});
afterAll(async () => {
  await browser.close();
});

/** Decodes an image in the browser itself: the real proof that a JPEG is well formed. */
async function decodeInBrowser(format: string, base64: string): Promise<[number, number]> {
  return page.evaluate(async (src) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    return [img.naturalWidth, img.naturalHeight] as [number, number];
  }, `data:image/${format};base64,${base64}`);
}

describe('screenshots', () => {
  it('returns the viewport as int[H][W][3] RGB', async () => {
    const rgb = await screenshotRgb(page);
    expect(rgb.length).toBe(240);
    expect(rgb.every((row) => row.length === 320)).toBe(true);
    const flat = rgb.flat(2);
    expect(flat.every((v) => Number.isInteger(v) && v >= 0 && v <= 255)).toBe(true);
    expect(rgb[120]?.[10]).toEqual([255, 0, 0]);
    expect(rgb[120]?.[310]).toEqual([0, 0, 255]);
  });

  it('encodes a PNG that decodes to the viewport size', async () => {
    const shot = await screenshotEncoded(page, 'png');
    expect(shot).toMatchObject({ format: 'png', width: 320, height: 240 });
    const png = decode(Buffer.from(shot.base64, 'base64'));
    expect([png.width, png.height]).toEqual([320, 240]);
    expect(await decodeInBrowser('png', shot.base64)).toEqual([320, 240]);
  });

  it('encodes a JPEG with its quality, which decodes to the viewport size', async () => {
    const [low, high] = await Promise.all([screenshotEncoded(page, 'jpeg', 10), screenshotEncoded(page, 'jpeg', 95)]);
    expect(low).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
    expect(low.base64.length).toBeLessThan(high.base64.length);
    expect(await decodeInBrowser('jpeg', low.base64)).toEqual([320, 240]);
  });

  it('refuses bytes that are neither PNG nor JPEG', () => {
    expect(() => imageSize(Buffer.from('GIF89a and more bytes here'))).toThrow(/neither a PNG nor a JPEG/);
  });
});

describe('screenshots leave the page untouched', () => {
  it('no caret-color style in pruned_html, and no DOM mutation a page script could see', async () => {
    const form = await browser.newPage({ viewport: { width: 320, height: 240 } });
    await form.setContent(`<input id="a" value="typed"><textarea id="b">note</textarea><div contenteditable>edit</div>
      <script>
        window.mutations = [];
        new MutationObserver((records) => records.forEach((r) => mutations.push(r.attributeName)))
          .observe(document.body, { attributes: true, subtree: true });
      </script>`);
    await form.focus('#a');
    for (const screenshot of ['png', 'rgb', 'jpeg'] as const) {
      for (let i = 0; i < 3; i++) {
        const seen = await observePage(form, { pruned_html: true, axtree: true, screenshot });
        expect(seen.pruned_html, screenshot).toContain('typed');
        expect(seen.pruned_html, screenshot).not.toContain('caret-color');
        expect(seen.pruned_html, screenshot).not.toContain('style=');
      }
    }
    // Marking adds bids (attribute "bid"); nothing else may be written.
    const written = await form.evaluate(() => (window as Window & { mutations?: string[] }).mutations ?? []);
    expect(written.filter((name) => name !== 'bid')).toEqual([]);
    await form.close();
  });
});
