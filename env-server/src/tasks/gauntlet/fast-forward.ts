import type { Page } from 'playwright-core';
import { bindCall } from '../../actions/language/bind.js';
import { resolveSubsets } from '../../actions/catalog/catalog.js';
import type { ActionContext } from '../../actions/context.js';
import { executeActions } from '../../actions/execute-actions.js';
import { parseActions } from '../../actions/language/parse.js';
import { ActionError } from '../../actions/types.js';
import { observePage } from '../../observe/observe.js';
import { PageDeadline } from '../../deadline/page-deadline.js';
import { TASK_ORIGIN } from '../../browser/site.js';
import { GauntletRun } from './run.js';
import { gauntletOracle } from './oracle/policy.js';

const ALL_ACTIONS = resolveSubsets(['chat', 'infeas', 'bid', 'coord', 'nav', 'tab']);
/** Far more than any step needs (the oracle takes 2–10 actions a step); a stuck oracle must not spin forever. */
const ACTIONS_PER_STEP = 40;

/**
 * Plays steps until `startStep` is on screen, with the built-in oracle acting through the same
 * observation and action code as an agent (unseen: nothing is recorded in the episode).
 */
export async function fastForward(
  page: Page,
  startStep: number,
  deadline: PageDeadline = new PageDeadline(),
): Promise<void> {
  const context = oracleContext(page, deadline);
  for (let actions = 0; ; actions++) {
    deadline.throwIfAborted();
    const status = await deadline.race(GauntletRun.readPage(page));
    if (status?.view === 'step' && status.step >= startStep) return;
    if (actions >= ACTIONS_PER_STEP * startStep)
      throw new Error(`start_step ${startStep}: the oracle was still on step ${status?.step} after ${actions} actions`);
    const seen = await observePage(page, {
      axtree: true,
      pruned_html: false,
      extra_properties: false,
      screenshot: 'none',
      deadline,
    });
    const action = gauntletOracle({
      goal: '',
      axtree_txt: seen.axtree_txt,
      pruned_html: '',
      url: seen.url,
      focused_element_bid: seen.focused_element_bid,
    });
    try {
      await executeActions(
        parseActions(action).map((call) => bindCall(call, ALL_ACTIONS)),
        context,
      );
    } catch (error) {
      // A missed action (a moving target, a covered button) is retried from the next observation.
      if (!(error instanceof ActionError)) throw error;
    }
  }
}

function oracleContext(page: Page, deadline: PageDeadline): ActionContext {
  const refuse = (what: string) => () => {
    throw new ActionError('Error', `the fast-forward oracle does not ${what}`);
  };
  return {
    context: page.context(),
    activePage: () => page,
    pages: () => [page],
    newTab: refuse('open tabs'),
    closeActiveTab: refuse('close tabs'),
    focusTab: refuse('switch tabs'),
    sendMessageToUser: () => undefined,
    reportInfeasible: refuse('give up'),
    checkNavigation: (url) => {
      if (!url.startsWith(TASK_ORIGIN + '/'))
        throw new ActionError('PermissionError', `the fast-forward oracle stays on ${TASK_ORIGIN}`);
    },
    actionTimeoutMs: 500,
    allowScriptActions: false,
    resolveUploadPath: refuse('upload files'),
    deadline,
  };
}
