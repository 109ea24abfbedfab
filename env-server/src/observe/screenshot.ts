import type { Page } from 'playwright-core';
import { decode } from 'fast-png';
import type { EncodedScreenshot } from '@gauntlet/proto';

// Screenshots leave the page alone (`caret: 'initial'`): Playwright's default hides carets by
// writing a `caret-color` style onto the page's elements while it captures, which the observation
// taken alongside then serialised into pruned_html (and page scripts could see as a mutation).
// BrowserGym's screenshot shows the caret as it is too.

/**
 * The viewport as OpenEnv's `int[H][W][3]` RGB. Costly by nature (a million small arrays, ~10 MB
 * of JSON at 1280×720): prefer `screenshotEncoded` where the client accepts it.
 */
export async function screenshotRgb(page: Page): Promise<number[][][]> {
  const png = decode(await page.screenshot({ type: 'png', caret: 'initial' }));
  const { width, height, channels, data } = png;
  // 16-bit PNGs keep the high byte; Chromium writes 8-bit, but decoding is cheap to keep honest.
  const shift = png.depth === 16 ? 8 : 0;
  const rows: number[][][] = [];
  let at = 0;
  for (let y = 0; y < height; y++) {
    const row: number[][] = [];
    for (let x = 0; x < width; x++, at += channels) {
      // Grey images (1–2 channels) repeat their one value.
      const g = channels >= 3 ? 1 : 0;
      const b = channels >= 3 ? 2 : 0;
      row.push([(data[at] as number) >> shift, (data[at + g] as number) >> shift, (data[at + b] as number) >> shift]);
    }
    rows.push(row);
  }
  return rows;
}

/** The viewport as compact base64 PNG or JPEG (quality 0–100, JPEG only). */
export async function screenshotEncoded(page: Page, format: 'png' | 'jpeg', quality = 80): Promise<EncodedScreenshot> {
  const image = await page.screenshot(
    format === 'jpeg' ? { type: 'jpeg', quality, caret: 'initial' } : { type: 'png', caret: 'initial' },
  );
  const { width, height } = imageSize(image);
  return { format, width, height, base64: image.toString('base64') };
}

/** Pixel size from a PNG's IHDR or a JPEG's start-of-frame segment, without decoding the image. */
export function imageSize(image: Buffer): { width: number; height: number } {
  if (image.readUInt32BE(0) === 0x89504e47) return { width: image.readUInt32BE(16), height: image.readUInt32BE(20) };
  let at = 2;
  while (at + 9 < image.length) {
    const marker = image.readUInt16BE(at);
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xffc0 && marker <= 0xffcf && ![0xffc4, 0xffc8, 0xffcc].includes(marker)) {
      return { width: image.readUInt16BE(at + 7), height: image.readUInt16BE(at + 5) };
    }
    at += 2 + image.readUInt16BE(at + 2);
  }
  throw new Error('screenshot is neither a PNG nor a JPEG with a frame header');
}
