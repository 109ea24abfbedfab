import { z } from 'zod';
import { ExecutionError, GauntletError } from '../errors.js';

/**
 * How an episode ended. `success` / `fail`: the env finished it (the task says which);
 * `timeout`: it ran out of a budget (turns, time, context) first — a step that outlives its
 * deadline on the env is one (the env replies done + truncated in time); `infra_error`: the
 * infrastructure failed (env unreachable, browser died, policy 5xx or call timeouts) — never a
 * reward: the episode is retried, and a group that cannot be completed is dropped whole. No
 * action string can cause an `infra_error`. `unjudged`: the env finished it but the task cannot
 * tell success (an open-web `web` task reset without a goal spec): reward 0, reported apart,
 * never counted as a success.
 */
export const EpisodeOutcome = z.enum(['success', 'fail', 'timeout', 'infra_error', 'unjudged']);
export type EpisodeOutcome = z.infer<typeof EpisodeOutcome>;

/** The episode ran out of a budget (its deadline, its context): it ends as `timeout`. */
export class EpisodeLimitError extends GauntletError {
  static override readonly httpStatus = 504;
  constructor(message: string) {
    super('DEADLINE_EXCEEDED', message);
  }
}

/** The episode's own deadline passed (not one call's: a call that times out is an infra error). */
export class EpisodeTimeoutError extends EpisodeLimitError {}

/** Even with every older exchange trimmed, the prompt and its reply do not fit the context budget. */
export class ContextBudgetError extends EpisodeLimitError {}

/** The policy declares the episode lost (a scripted oracle stuck on a step): it ends as `fail`. */
export class PolicyGaveUpError extends ExecutionError {}

/** Codes that mean the job itself is wrong (unknown task, bad option, wrong model name, bad token). */
const UNRECOVERABLE = new Set([
  'VALIDATION_ERROR',
  'INVALID_JSON',
  'UNKNOWN_TYPE',
  'UNAUTHORIZED',
  'PAYLOAD_TOO_LARGE',
  'NOT_FOUND',
]);

/**
 * Whether retrying cannot help: the request or configuration is wrong, so the job must fail at
 * once with this error's message (BullMQ's UnrecoverableError) instead of being retried.
 */
export function isUnrecoverable(error: unknown): boolean {
  return error instanceof GauntletError && UNRECOVERABLE.has(error.code);
}

/**
 * The outcome of an episode that stopped with `error` (not a bad job: see isUnrecoverable).
 * Budgets → `timeout`, a policy giving up → `fail`, everything else — transport errors, dead
 * browsers, lost sessions, 5xx, a call whose client-side deadline fired before the env's reply,
 * bugs — → `infra_error`, never a reward. (A step past its deadline on the env is not an error:
 * the env answers it as a truncated, done step, which runEpisode records as `timeout`.)
 */
export function outcomeFromError(error: unknown): Exclude<EpisodeOutcome, 'success' | 'unjudged'> {
  if (error instanceof EpisodeLimitError) return 'timeout';
  if (error instanceof PolicyGaveUpError) return 'fail';
  return 'infra_error';
}

/**
 * Whether the env's reply says its task could not judge the episode: the task reports
 * `judged: false` in its task info (`metadata.browsergym_info.task_info`).
 */
export function isUnjudged(taskInfo: Record<string, unknown>): boolean {
  return taskInfo['judged'] === false;
}
