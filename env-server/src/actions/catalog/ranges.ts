import type { NumberRange } from './catalog.js';

/**
 * The numbers actions accept, declared once and checked by the binder. Chromium takes input
 * coordinates and wheel deltas as 32-bit floats: a wheel delta of 1e39 becomes infinity and the
 * page never takes input again. The bounds are far beyond any real screen or scroll and far
 * below where floats break.
 */

/** Screenshot pixels; a little off-screen is allowed (a user can press outside the page, too). */
export const COORDINATE_RANGE: NumberRange = [-100_000, 100_000];

/** Wheel deltas in pixels: 100,000 px scrolls past most documents in one call. */
export const SCROLL_RANGE: NumberRange = [-100_000, 100_000];

/** noop's wait: no step may run longer than the longest step timeout (600 s) anyway. */
export const WAIT_MS_RANGE: NumberRange = [0, 600_000];
