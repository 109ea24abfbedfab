import type { Frame, Page } from 'playwright-core';
import { EFFECTS_PROBE_KEY, type EffectsProbe, type EffectsReport } from '../../browser/effects-probe.js';
import type { SettleMode } from '../../config.js';
import { PageDeadline } from '../../deadline/page-deadline.js';

/** BrowserGym's sleep after every step's actions, before it validates and observes. */
export const BROWSERGYM_STEP_WAIT_MS = 500;
/**
 * The smart settle waits for work due within this long of the moment it asks, and never longer:
 * BrowserGym's own window, so what it would have seen on a timer is waited for (jQuery UI's
 * 300 ms autocomplete) and a step never costs more than it would in BrowserGym. Longer timers
 * (MiniWoB's episode clock, a 1 s countdown) are the page's own schedule, not the action's.
 */
export const SMART_HORIZON_MS = BROWSERGYM_STEP_WAIT_MS;
/**
 * Once what the action started has run, the DOM must be still this long: longer than a 60 Hz
 * frame and jQuery's 13 ms animation tick, so an animation that mutates every frame holds it.
 */
export const SMART_QUIET_MS = 30;

/**
 * Waits, after a step's actions, for what they set in motion on the active page: `browsergym`
 * sleeps BrowserGym's fixed 0.5 s; `smart` asks every frame's effects probe to wait until the
 * timers, frames, requests and transitions begun since `since` (epoch ms, the step's start) have
 * run and the DOM has been quiet for a moment — at once when there were none.
 */
export async function settleStep(
  mode: SettleMode,
  page: Page,
  since: number,
  deadline: PageDeadline,
): Promise<EffectsReport[]> {
  if (mode === 'browsergym') {
    await deadline.sleep(BROWSERGYM_STEP_WAIT_MS);
    return [];
  }
  return settleEffects(page, since, deadline);
}

/**
 * Each frame's probe bounds its own wait (the horizon, from when it is asked); here only the step
 * deadline bounds the answer. A limit on this side would count the time the question waits for a
 * loaded renderer and give up on a page that is only slow: the observation's evaluates that follow
 * are then served before the page's overdue timers run (the browser answers the debugger first),
 * so the step sees the page before what it was waiting for. A frame that cannot answer at all
 * cannot be observed either, and the deadline ends that step.
 */
export async function settleEffects(page: Page, since: number, deadline: PageDeadline): Promise<EffectsReport[]> {
  if (page.isClosed()) return [];
  const reports = await deadline.race(Promise.all(page.frames().map((frame) => askFrame(frame, since))));
  return reports.filter((report): report is EffectsReport => report !== undefined);
}

async function askFrame(frame: Frame, since: number): Promise<EffectsReport | undefined> {
  return (
    frame
      .evaluate(
        ([key, from, horizon, quiet]) => {
          const probe = (window as unknown as Record<symbol, EffectsProbe | undefined>)[Symbol.for(key)];
          return probe?.settle(from, horizon, quiet);
        },
        [EFFECTS_PROBE_KEY, since, SMART_HORIZON_MS, SMART_QUIET_MS] as const,
      )
      // A frame that navigated or went away mid-wait has nothing left to wait for here.
      .catch(() => undefined)
  );
}
