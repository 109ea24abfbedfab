import type { ActionContext } from '../context.js';
import { isPlaywrightError, toActionError } from './execute-errors.js';
import { findAction } from '../catalog/catalog.js';
import { settleAfterAction, watchNavigations } from '../settle/settle.js';
import { ActionError, type BoundAction } from '../types.js';

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
  try {
    // Handlers race their own waits too; this race also covers any they missed.
    await deadline.race(handler.run(action.params, ctx));
    if (watch) await settleAfterAction(ctx.activePage(), { watch, deadline, frame: handler.settlesOnFrame === true });
  } catch (error) {
    if (deadline.isReason(error)) throw error;
    const actionError =
      error instanceof ActionError ? error : isPlaywrightError(error) ? toActionError(error) : undefined;
    if (!actionError) throw error;
    // A failed action may still have moved the page: a navigation that failed commits Chromium's
    // error page after goto rejects, and observing before that reads a document being replaced.
    if (watch) await settleAfterAction(ctx.activePage(), { watch, deadline });
    throw actionError;
  } finally {
    watch?.dispose();
  }
}

/** Runs `actions` in order; the first failure aborts the rest and is rethrown (BrowserGym's multi-action semantics). */
export async function executeActions(actions: readonly BoundAction[], ctx: ActionContext): Promise<void> {
  for (const action of actions) await executeAction(action, ctx);
}
