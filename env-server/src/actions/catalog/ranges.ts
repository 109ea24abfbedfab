import type { NumberRange } from './spec.js';

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

/**
 * Key combinations (`ControlOrMeta+Shift+ArrowDown`). Playwright presses every key of a chord
 * down and up in one call that cannot be stopped: `Shift+` 5,000 times ran 9.5 s past any
 * deadline. Four modifiers and a key make the longest real chord; the names are short.
 */
export const KEY_CHORD = { maxKeys: 6, maxChars: 64 } as const;

/** The keys of a chord as Playwright splits them (`+` after a `+` is the plus key itself). */
export function chordKeys(chord: string): string[] {
  return chord.split(/\+(?=.)/);
}

/** noop's wait: no step may run longer than the longest step timeout (600 s) anyway. */
export const WAIT_MS_RANGE: NumberRange = [0, 600_000];
