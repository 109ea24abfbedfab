import type { Page } from 'playwright-core';

/**
 * Coordinate actions take screenshot pixels. A screenshot (Playwright's default `scale:
 * 'device'`) has devicePixelRatio pixels per CSS pixel, while Playwright's mouse works in CSS
 * pixels, so coordinates are divided by the page's devicePixelRatio (the scale factor,
 * including browser zoom). With the default viewport the ratio is 1 and coordinates pass through.
 * The ratio is read once per page: it is fixed by the context's deviceScaleFactor, and a
 * headless page has no user zoom.
 */
const ratios = new WeakMap<Page, number>();

export async function scaleFactor(page: Page): Promise<number> {
  const known = ratios.get(page);
  if (known !== undefined) return known;
  const ratio = await page.evaluate(() => window.devicePixelRatio).catch(() => undefined);
  if (ratio === undefined || !(ratio > 0)) return 1; // unknown this time (page navigating): ask again next action
  ratios.set(page, ratio);
  return ratio;
}

export async function cssPoint(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const ratio = await scaleFactor(page);
  return { x: x / ratio, y: y / ratio };
}
