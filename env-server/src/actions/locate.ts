import type { FrameLocator, Locator, Page } from 'playwright-core';

/** Where a bid lives: the bids of the `<iframe>` elements to enter, outermost first, then the element's own bid. */
export interface BidPath {
  frames: string[];
  bid: string;
}

/**
 * Splits a bid into its frame chain. Frame prefixes are runs of letters whose case alternates
 * with each nesting level ('a' → 'aA' → 'aAb'), so 'aA5' lives in frame 'aA' inside frame 'a'.
 * A bid made only of letters is an `<iframe>` element itself: its last run names it, not a frame
 * to enter ('aA' is the iframe inside frame 'a').
 */
export function splitBid(bid: string): BidPath {
  const letters = /^[a-zA-Z]*/.exec(bid)?.[0] ?? '';
  const runs = letters.match(/[a-z]+|[A-Z]+/g) ?? [];
  if (letters.length === bid.length) runs.pop();
  const frames: string[] = [];
  let prefix = '';
  for (const run of runs) {
    prefix += run;
    frames.push(prefix);
  }
  return { frames, bid };
}

/** A CSS attribute selector matching `bid` exactly, whatever characters an agent put in it. */
export function bidSelector(bid: string): string {
  // CSS strings take backslash escapes; newlines must be written as a hex escape.
  const escaped = bid.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\n\r\f]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `);
  return `[bid="${escaped}"]`;
}

/**
 * A lazy locator for the element with `bid`, entering its frames by their own bids. Nothing is
 * queried until an action runs, so the happy path costs no extra round trip. Playwright's CSS
 * engine pierces open shadow roots, so shadow content needs no special handling.
 */
export function locateBid(page: Page, bid: string): Locator {
  const { frames } = splitBid(bid);
  let scope: Page | FrameLocator = page;
  for (const frameBid of frames) scope = scope.locator(bidSelector(frameBid)).contentFrame();
  return scope.locator(bidSelector(bid));
}
