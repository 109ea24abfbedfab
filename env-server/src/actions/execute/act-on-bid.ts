import type { Locator, Mouse } from 'playwright-core';
import type { ActionContext } from '../context.js';
import { diagnose, type BidActionName, type Diagnosis } from '../diagnose/diagnose.js';
import { inputWasSent, isPlaywrightError, isPlaywrightTimeout, toActionError } from './execute-errors.js';
import { locateBid } from './locate.js';
import { readyPointerTarget, type Point } from './ready-check.js';

export interface AttemptOptions {
  timeout: number;
  force: boolean;
}

export interface BidAct {
  bid: string;
  action: BidActionName;
  /** The Playwright call; `force` is true only on the retry. */
  run(target: Locator, options: AttemptOptions): Promise<unknown>;
  /** BrowserGym retries click, dblclick, hover, fill and select_option with force after a timeout. */
  forceRetry?: boolean;
  /** select_option's wanted values, so a missing option can be named. */
  wanted?: string[];
  /** Pointer actions may act with the raw mouse at the element's centre when one in-page check proves it safe. */
  fast?: (mouse: Mouse, at: Point) => Promise<void>;
  /** A second chance after a failure, given its diagnosis (fill on a <select>); true when it handled the action. */
  recover?(diagnosis: Diagnosis): Promise<boolean>;
}

/**
 * Runs a bid action the fast way: for pointer actions a one-round-trip readiness check, else
 * Playwright's own actionability checks under the short per-action timeout. Only when Playwright fails does one in-page diagnosis
 * say why; a force retry (BrowserGym's behaviour) runs only when the diagnosis does not show
 * that forcing would act on a different element or on a control no user could operate. Every
 * wait races the step deadline, so a deadline or cancel stops the action between attempts.
 */
export async function actOnBid(ctx: ActionContext, act: BidAct): Promise<void> {
  const target = locateBid(ctx.activePage(), act.bid);
  const timeout = ctx.actionTimeoutMs;
  const { deadline } = ctx;
  let first: unknown;
  try {
    const at = act.fast ? await deadline.race(readyPointerTarget(ctx.activePage(), act.bid)) : undefined;
    if (at && act.fast) await deadline.command(act.fast(ctx.activePage().mouse, at));
    else await deadline.race(act.run(target, { timeout, force: false }));
    return;
  } catch (error) {
    first = error;
  }
  if (!isPlaywrightError(first)) throw first;
  const diagnosis = await deadline.race(diagnose(target, { bid: act.bid, action: act.action, wanted: act.wanted }));
  if (diagnosis && act.recover && (await act.recover(diagnosis))) return;
  if (!act.forceRetry || !isPlaywrightTimeout(first) || diagnosis?.blocksForce) throw toActionError(first, diagnosis);
  // Acting twice is worse than reporting once: the agent sees the page and can act again.
  if (inputWasSent(first)) return;
  deadline.throwIfAborted();
  try {
    await deadline.race(act.run(target, { timeout, force: true }));
  } catch (second) {
    throw isPlaywrightError(second) ? toActionError(second, diagnosis) : second;
  }
}
