import type { BrowserContext } from 'playwright-core';
import { trackEffectsInPage } from './effects-in-page.js';

/**
 * `window[Symbol.for(EFFECTS_PROBE_KEY)]` is every document's record of what its code set in
 * motion (timers, animation frames, requests, socket replies), read by the smart settle
 * (actions/settle/settle-effects.ts). A symbol, so page scripts and the DOM never see it by name.
 */
export const EFFECTS_PROBE_KEY = 'gauntlet.effects';

/** What one document's settle did: `none` = nothing the action started was pending, observed at once. */
export interface EffectsReport {
  outcome: 'none' | 'quiet' | 'bound';
  waitedMs: number;
}

/** The probe's surface, as a settle reads it (see effects-in-page.ts). */
export interface EffectsProbe {
  settle(since: number, horizonMs: number, quietMs: number): EffectsReport | Promise<EffectsReport>;
  /**
   * True when the action begun at `since` left work the browser runs in a later task: a timer,
   * frame, request or transition due within `horizonMs`, a submission, navigation or toggle, or a
   * page that listens for scrolling (its handlers run at the next frame).
   */
  deferredSince(since: number, horizonMs: number): boolean;
  /** The browser's own timers, which the probe does not record: the settle's own waits use them. */
  setTimeout: typeof setTimeout;
  clearTimeout: typeof clearTimeout;
  requestAnimationFrame: typeof requestAnimationFrame;
}

/** Chains deeper than this (a timer set by a timer set by …) are not waited for: a polling loop never ends. */
export const MAX_EFFECT_DEPTH = 6;
/** Most timers/frames/requests a document keeps records of at once; beyond, new ones are not waited for. */
export const MAX_EFFECT_RECORDS = 2_000;

/** Installs the probe in every document of `context`, before any page script runs. */
export async function installEffectsProbe(context: BrowserContext): Promise<void> {
  await context.addInitScript(trackEffectsInPage, {
    key: EFFECTS_PROBE_KEY,
    maxDepth: MAX_EFFECT_DEPTH,
    maxRecords: MAX_EFFECT_RECORDS,
  });
}
