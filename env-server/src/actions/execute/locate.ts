import type { FrameLocator, Locator, Page } from 'playwright-core';
import { parseBid } from '../../observe/bid.js';

/** A CSS attribute selector matching `bid` exactly, whatever characters an agent put in it. */
export function bidSelector(bid: string): string {
  // CSS strings take backslash escapes; newlines must be written as a hex escape.
  const escaped = bid
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/[\n\r\f]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `);
  return `[bid="${escaped}"]`;
}

/**
 * A lazy locator for the element with `bid`, entering its frames by their own bids. Nothing is
 * queried until an action runs, so the happy path costs no extra round trip. Playwright's CSS
 * engine pierces open shadow roots, so shadow content needs no special handling.
 */
export function locateBid(page: Page, bid: string): Locator {
  // A malformed bid has no frame path: it is then looked up (and reported missing) in the main frame.
  const frames = parseBid(bid)?.framePath ?? [];
  let scope: Page | FrameLocator = page;
  for (const frameBid of frames) scope = scope.locator(bidSelector(frameBid)).contentFrame();
  return scope.locator(bidSelector(bid));
}
