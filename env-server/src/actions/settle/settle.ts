import type { Frame, Page } from 'playwright-core';
import { NAVIGATION_PROBE_KEY } from '../../browser/navigation-probe.js';
import { EFFECTS_PROBE_KEY, type EffectsProbe } from '../../browser/effects-probe.js';
import { nextNavigationActivity, type NavigationWatch } from './settle-watch.js';
import { within } from '@gauntlet/proto/deadline';
import { PageDeadline } from '../../deadline/page-deadline.js';

export { watchNavigations, type NavigationWatch } from './settle-watch.js';

/** BrowserGym sleeps 0.5 s and then waits for DOMContentLoaded; we wait only for what the action started, this long at most. */
export const NAVIGATION_SETTLE_MS = 2000;
/** The flush's turns end by this long at most (a background tab runs no frames, and throttles timers). */
const FLUSH_FALLBACK_MS = 100;
/** A page busy in a long task must not hold the step longer than this. */
const FRAME_FLUSH_MS = 250;

export interface SettleOptions {
  /** Navigations the action started (watchNavigations, begun before the action). */
  watch?: NavigationWatch;
  /** The step deadline: when it ends, settling rejects with its reason. */
  deadline?: PageDeadline;
  /** Also wait for the next animation frame (wheel scrolling applies there). */
  frame?: boolean;
  /** Longest wait for started navigations to reach DOMContentLoaded (default NAVIGATION_SETTLE_MS). */
  navigationBudgetMs?: number;
}

/**
 * Lets the page finish what an action triggered before it is observed: two task turns (event
 * handlers, microtasks and zero-delay timers ran; a script-initiated navigation has had its
 * chance to start), then DOMContentLoaded of every navigation the action started, bounded. A
 * slow page is not an action error: when the budget runs out the observation shows the page as it is.
 */
export async function settleAfterAction(page: Page, options: SettleOptions = {}): Promise<void> {
  const { watch, deadline = new PageDeadline() } = options;
  const budgetEnd = Date.now() + (options.navigationBudgetMs ?? NAVIGATION_SETTLE_MS);
  const flushing = flushTasks(page, options.frame === true, watch?.since ?? Date.now());
  let navigating = await deadline.race(within(flushing, FRAME_FLUSH_MS));
  if (!watch) return;
  if (navigating === undefined && watch.started.size === 0) {
    // No answer and no navigation seen cannot be read as "nothing happened": the browser holds
    // page evaluations while a navigation it has begun is pending, and on a starved event loop
    // our timer fires before the browser's queued events (that navigation's request) are read.
    // The answer comes when the navigation commits or the page's long task ends, within the budget.
    navigating = await deadline.race(within(flushing, budgetEnd - Date.now()));
  }
  if (navigating && watch.started.size === 0) {
    // The page began navigating during the flush but its request has not reached us yet.
    const activity = nextNavigationActivity(page);
    try {
      await deadline.race(within(activity.happened, budgetEnd - Date.now()));
    } finally {
      activity.stop();
    }
  }
  const settled = new Set<Frame>();
  // A navigation may start another (redirect, popup loading): loop until none is left unvisited.
  for (let pending = unvisited(watch, settled); pending.length > 0; pending = unvisited(watch, settled)) {
    for (const [frame, ended] of pending) {
      settled.add(frame);
      const left = budgetEnd - Date.now();
      if (left <= 0) return;
      await deadline.race(within(ended, left));
      if (frame.isDetached() || frame.page().isClosed()) continue;
      const loaded = frame.waitForLoadState('domcontentloaded', { timeout: Math.max(1, budgetEnd - Date.now()) });
      await deadline.race(loaded.catch(() => undefined));
    }
  }
}

function unvisited(watch: NavigationWatch, settled: Set<Frame>) {
  return [...watch.started].filter(([frame]) => !settled.has(frame));
}

/**
 * Resolves after two task turns (a click handler's `setTimeout(…, 0)` ran), preceded by the next
 * animation frame when `frame` is set — at once when the effects probe saw the action leave
 * nothing for a later task — saying whether the page requested a cross-document
 * navigation since `since` (the navigation probe's record) or meanwhile (Navigation API
 * `navigate` event). The timeout covers background tabs, where frames do not run.
 */
async function flushTasks(page: Page, frame: boolean, since: number): Promise<boolean> {
  if (page.isClosed()) return false;
  return (
    page
      .evaluate(
        ([waitForFrame, probeKey, effectsKey, actionStart, fallbackMs]) =>
          new Promise<boolean>((resolve) => {
            const own = window as unknown as Record<symbol, unknown>;
            const requestedAt = own[Symbol.for(probeKey)] as (() => number) | undefined;
            // The effects probe's untracked timers: the settle's own waits are not the action's work.
            const probe = own[Symbol.for(effectsKey)] as EffectsProbe | undefined;
            const timers = probe ?? window;
            let navigating = (requestedAt?.() ?? 0) >= actionStart;
            // Turns queued after an input wait behind the next rendering frame (~9 ms a step at
            // 60 Hz); when the action left nothing for a later task, there is nothing to wait for.
            if (!waitForFrame && probe && !probe.deferredSince(actionStart, fallbackMs)) return resolve(navigating);
            const history = (window as { navigation?: EventTarget }).navigation;
            const onNavigate = (event: Event) => {
              navigating ||= !(event as Event & { destination: { sameDocument: boolean } }).destination.sameDocument;
            };
            const fallback = timers.setTimeout(() => done(), fallbackMs);
            const done = () => {
              timers.clearTimeout(fallback);
              history?.removeEventListener('navigate', onNavigate);
              resolve(navigating);
            };
            history?.addEventListener('navigate', onNavigate);
            // Two task turns let handlers' setTimeout(0) work and script navigations start; waiting for
            // an animation frame instead would cost ~16 ms a step, and observation forces layout anyway.
            const turns = () => timers.setTimeout(() => timers.setTimeout(done, 0), 0);
            if (waitForFrame) timers.requestAnimationFrame(turns);
            else turns();
          }),
        [frame, NAVIGATION_PROBE_KEY, EFFECTS_PROBE_KEY, since, FLUSH_FALLBACK_MS] as const,
      )
      // A navigation replacing the document mid-flush is exactly what the navigation wait handles next.
      .catch(() => false)
  );
}
