import { OriginRefusedError, ValidationError, WEB_TASK, type ChatMessage } from '@gauntlet/proto';
import type { Page } from 'playwright-core';
import { NAVIGATION_TIMEOUT_MS } from '../../actions/catalog/nav.js';
import { isPlaywrightError, playwrightFirstLine } from '../../actions/execute/execute-errors.js';
import { clearNavigationRefusals, takeNavigationRefusal } from '../../browser/navigation-guard.js';
import type { OriginPolicy } from '../../browser/origin-policy.js';
import type { PageDeadline } from '../../deadline/page-deadline.js';
import { OracleError } from '../oracle-helpers/action-text.js';
import type { TaskDefinition, TaskEpisode, TaskStatus } from '../task.js';
import { goalSpecOf, judge, MAX_PAGE_TEXT_CHARS, type GoalSpec } from './judge.js';
import { parseWebOptions } from './options.js';

/** Steps before an open-web episode is truncated, unless its options say otherwise (max_steps). */
export const WEB_MAX_STEPS = 50;

/**
 * The open-web task: its start page is `options.url` on an origin the operator allows (the same
 * policy every `goto` and page request meets), its goal is `options.goal`, and it ends when the
 * agent answers (send_msg_to_user) or gives up (report_infeasible). With a goal spec the final
 * page and answer are judged; without one the episode reports `judged: false` (`unjudged`).
 * The seed changes nothing: the page is whatever the site serves.
 */
export function webTask(policy: OriginPolicy): TaskDefinition {
  return {
    name: WEB_TASK,
    benchmark: WEB_TASK,
    description:
      'Open web: starts on options.url (an origin the server allows), asks options.goal; ends on send_msg_to_user or report_infeasible; judged by the success_url / success_text / answer regexes, else unjudged.',
    maxSteps: WEB_MAX_STEPS,
    async setup(
      page: Page,
      _seed: number,
      raw: Record<string, unknown>,
      deadline?: PageDeadline,
    ): Promise<TaskEpisode> {
      const options = parseWebOptions(raw, { ...policy, allowDataUrls: false });
      await openStartPage(page, options.url, deadline);
      const spec = goalSpecOf(options);
      const judged = Object.keys(spec).length > 0;
      return {
        goal: options.goal,
        info: { judged },
        ...(options.max_steps === undefined ? {} : { maxSteps: options.max_steps }),
        status: (current, chat = []) => webStatus(current, chat, spec),
      };
    },
    oracle: () => {
      throw new OracleError('the web task has no oracle: its goal is free text');
    },
  };
}

/** Loads the start page; a hop the origin policy refused (a redirect) or a page that does not load is the url's fault. */
async function openStartPage(page: Page, url: string, deadline: PageDeadline | undefined): Promise<void> {
  const context = page.context();
  clearNavigationRefusals(context);
  const loading = page.goto(url, { waitUntil: 'domcontentloaded', timeout: NAVIGATION_TIMEOUT_MS });
  try {
    await (deadline ? deadline.race(loading) : loading);
  } catch (error) {
    if (deadline?.isReason(error)) throw error;
    const refusal = takeNavigationRefusal(context);
    if (refusal) throw new OriginRefusedError(url, refusal);
    if (!isPlaywrightError(error)) throw error;
    const msg = `the start page did not load (${playwrightFirstLine(error)})`;
    throw new ValidationError(`options.url: ${msg}`, [
      { loc: ['body', 'options', 'url'], msg, type: 'value_error', input: url },
    ]);
  }
  const refusal = takeNavigationRefusal(context);
  if (refusal) throw new OriginRefusedError(url, refusal);
}

/** Not done until the agent answers or gives up; then the goal spec (if any) judges the final page. */
async function webStatus(page: Page, chat: readonly ChatMessage[], spec: GoalSpec): Promise<TaskStatus> {
  const end = chat.find((m) => m.role === 'assistant' || m.role === 'infeasible');
  const judged = Object.keys(spec).length > 0;
  if (!end) return { rawReward: 0, done: false, info: { judged } };
  const answer = end.role === 'assistant' ? end.message : null;
  const ended = { answer, infeasible: answer === null };
  if (!judged) return { rawReward: 0, done: true, reason: 'no goal spec: unjudged', info: { judged, ...ended } };
  const verdict = await judge(spec, {
    url: page.url(),
    text: () => page.evaluate((max) => (document.body?.innerText ?? '').slice(0, max), MAX_PAGE_TEXT_CHARS),
    answer,
  });
  return {
    rawReward: verdict.success ? 1 : 0,
    done: true,
    reason: verdict.reason,
    info: { judged, ...ended, checks: verdict.checks },
  };
}
