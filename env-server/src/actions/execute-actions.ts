import type { ActionContext } from './context.js';
import { isPlaywrightError, toActionError } from './execute/execute-errors.js';
import { findAction } from './catalog/catalog.js';
import { settleAfterAction, watchNavigations } from './settle/settle.js';
import { ActionError, type BoundAction } from './types.js';
import { frameChecksDone, nextNavigationRefusal, takeNavigationRefusal } from '../browser/navigation-guard.js';
import { within } from '@gauntlet/proto/deadline';

/** Frame checks (file-frames.ts) take two round trips to the page; a stuck one must not hold the step. */
const FRAME_CHECK_MS = 2_000;

/**
 * Runs one bound action on the session's pages, then lets the page settle on what it triggered.
 * Failures the agent caused or can act on are thrown as ActionError (its `display` is
 * `last_action_error`); an ended `ctx.deadline` rejects with its reason; anything else is an
 * infrastructure fault and propagates unchanged.
 */
export async function executeAction(action: BoundAction, ctx: ActionContext): Promise<void> {
  const { deadline } = ctx;
  deadline.throwIfAborted();
  const handler = findAction(action.name);
  if (!handler) throw new ActionError('NameError', `Invalid action type '${action.name}'.`);
  // Watch from before the action: a click's navigation request may fire before the click returns.
  const watch = handler.touchesPage ? watchNavigations(ctx.context) : undefined;
  const refusal = nextNavigationRefusal(ctx.context);
  let failure: ActionError | undefined;
  try {
    // Handlers race their own waits too; this race also covers any they missed. A refused
    // navigation ends the action at once (the handler's own wait is left to fail unobserved):
    // a document that navigates while it is parsed never fires `load` once that is cancelled.
    const running = handler.run(action.params, ctx);
    running.catch(() => undefined);
    await deadline.race(Promise.race([running, refusal.refused]));
    if (watch) await settleAfterAction(ctx.activePage(), { watch, deadline, frame: handler.settlesOnFrame === true });
  } catch (error) {
    if (deadline.isReason(error)) throw error;
    failure = error instanceof ActionError ? error : isPlaywrightError(error) ? toActionError(error) : undefined;
    if (!failure) throw error;
    // A failed action may still have moved the page: a navigation that failed commits Chromium's
    // error page after goto rejects, and observing before that reads a document being replaced.
    if (watch) await settleAfterAction(ctx.activePage(), { watch, deadline });
  } finally {
    refusal.stop();
    watch?.dispose();
  }
  // Frames the action attached are checked before the page is observed (a file: frame never loads).
  await deadline.race(within(frameChecksDone(ctx.context), FRAME_CHECK_MS));
  // A blocked hop is what went wrong, whatever Playwright made of it ("net::ERR_ABORTED at …").
  refuseBlockedNavigation(ctx);
  if (failure) throw failure;
}

/**
 * Any navigation hop the origin policy refused makes the action fail with why. One that arrives
 * after the action settled (a popup the page opened late) is reported by the next action.
 */
function refuseBlockedNavigation(ctx: ActionContext): void {
  const refusal = takeNavigationRefusal(ctx.context);
  if (refusal) throw new ActionError('PermissionError', refusal);
}

/** Runs `actions` in order; the first failure aborts the rest and is rethrown (BrowserGym's multi-action semantics). */
export async function executeActions(actions: readonly BoundAction[], ctx: ActionContext): Promise<void> {
  for (const action of actions) await executeAction(action, ctx);
}
