import type { StepResult } from '@gauntlet/proto';
import type { Page } from 'playwright-core';
import { parseActions } from '../actions/language/parse.js';
import { bindCall } from '../actions/language/bind.js';
import { executeActions } from '../actions/execute-actions.js';
import { settleStep } from '../actions/settle/settle-effects.js';
import { settleAfterAction } from '../actions/settle/settle.js';
import { ActionError } from '../actions/types.js';
import type { ActionContext } from '../actions/context.js';
import type { ContextLease } from '../browser/pool.js';
import { navigationRefusal } from '../browser/navigation-policy.js';
import type { ServerConfig } from '../config.js';
import type { PageDeadline } from '../deadline/page-deadline.js';
import type { Episode } from './episode.js';
import type { Tabs } from './tabs.js';
import { buildResult } from './result.js';
import { PartClock } from '../observe/part-clock.js';
import { resolveUploadPath } from './uploads.js';

export interface StepInput {
  episode: Episode;
  tabs: Tabs;
  lease: ContextLease;
  config: ServerConfig;
  actionText: string;
  deadline: PageDeadline;
}

/**
 * One environment step: parse → execute and settle (first error aborts the rest) → task status →
 * observe. Action mistakes become `last_action_error`; only infrastructure failures throw.
 */
export async function runStep({ episode, tabs, lease, config, actionText, deadline }: StepInput): Promise<StepResult> {
  const t0 = performance.now();
  const since = Date.now();
  episode.stepCount += 1;
  episode.lastAction = actionText;
  episode.lastActionError = '';
  let infeasible = false;
  // Where the action's time goes: `execute` runs the actions and their flush, `settle` the step's settle.
  const clock = new PartClock();
  const context = makeActionContext(lease, tabs, episode, config, deadline, () => {
    infeasible = true;
  });
  try {
    const { strict, multiAction, maxChars, maxCalls } = episode.actions;
    const calls = parseActions(actionText, { strict, multiAction, maxChars, maxCalls });
    const actions = calls.map((call) => bindCall(call, episode.actions.subsets));
    await clock.time('execute', () => executeActions(actions, context));
  } catch (error) {
    if (!(error instanceof ActionError)) throw error;
    episode.lastActionError = error.display;
  }
  // executeActions already settled after each action (navigations it started, handlers' zero-delay
  // timers). What the actions set in motion on a timer (jQuery UI opens an autocomplete menu
  // 300 ms after typing) is waited for now: smart waits for exactly that, browsergym sleeps 0.5 s.
  await clock.time('settle', () => settleStep(config.settle, tabs.active, since, deadline));
  return finishStep(episode, tabs, { t0, infeasible, actionParts: clock.done() }, deadline);
}

/** A step whose action the person already did on the page (recording): settle, then finish it. */
export async function personsStep(
  episode: Episode,
  tabs: Tabs,
  actionText: string,
  deadline: PageDeadline,
): Promise<StepResult> {
  const t0 = performance.now();
  await settleAfterAction(tabs.active, { deadline });
  episode.stepCount += 1;
  episode.lastAction = actionText;
  episode.lastActionError = '';
  return finishStep(episode, tabs, { t0, infeasible: false }, deadline);
}

/**
 * The part of a step after its action ran (by the env, or by a person in a recording session):
 * the task's status decides reward and done, then the page is observed.
 */
export async function finishStep(
  episode: Episode,
  tabs: Tabs,
  { t0, infeasible, actionParts }: { t0: number; infeasible: boolean; actionParts?: Record<string, number> },
  deadline: PageDeadline,
): Promise<StepResult> {
  const t1 = performance.now();
  const status = await deadline.race(episode.taskEpisode.status(tabs.active, episode.chat));
  episode.lastRawReward = status.rawReward;
  const reward = status.reward ?? (status.done && status.rawReward > 0 ? 1 : 0);
  episode.cumReward += reward;
  episode.done = status.done || infeasible;
  episode.truncated = !episode.done && episode.stepCount >= episode.maxSteps;
  if (episode.truncated) episode.done = true;
  const t2 = performance.now();
  return buildResult(
    episode,
    tabs,
    reward,
    {
      action_ms: t1 - t0,
      ...(actionParts ? { action_parts_ms: actionParts } : {}),
      validate_ms: t2 - t1,
      task_info: status.info ?? {},
      task_reason: status.reason ?? '',
      infeasible,
    },
    deadline,
  );
}

function makeActionContext(
  lease: ContextLease,
  tabs: Tabs,
  episode: Episode,
  config: ServerConfig,
  deadline: PageDeadline,
  onInfeasible: () => void,
): ActionContext {
  return {
    context: lease.context,
    activePage: (): Page => tabs.active,
    pages: () => tabs.all(),
    newTab: () => tabs.open(),
    closeActiveTab: () => tabs.closeActive(),
    focusTab: async (index) => {
      try {
        await tabs.focus(index);
      } catch (error) {
        if (error instanceof RangeError) throw new ActionError('ValueError', error.message);
        throw error;
      }
    },
    sendMessageToUser: (text) => episode.chat.push({ role: 'assistant', timestamp: Date.now() / 1000, message: text }),
    reportInfeasible: (reason) => {
      episode.chat.push({ role: 'infeasible', timestamp: Date.now() / 1000, message: reason });
      onInfeasible();
    },
    checkNavigation: (url) => {
      const refusal = navigationRefusal(url, { extra: config.allowedOrigins, allowDataUrls: config.allowDataUrls });
      if (refusal) throw new ActionError('PermissionError', refusal);
    },
    actionTimeoutMs: config.actionTimeoutMs,
    maxTypedChars: config.maxTypedChars,
    allowScriptActions: config.allowScriptActions,
    resolveUploadPath: (file) => resolveUploadPath(file, config.uploadDir),
    deadline,
  };
}
