import type { StepResult } from '@gauntlet/proto';
import type { Episode } from './episode.js';
import type { Tabs } from './tabs.js';
import { blankResult } from './result.js';

/**
 * A step that runs past its deadline is the policy's outcome, never an infrastructure error:
 * whatever made it slow (a long wait, typing, a page that hangs or blocks its own thread) came
 * from what the policy wrote or where it went. The reply must reach the client before the
 * client's own deadline (it sends what is left of it as `timeout_s`), so the work stops a little
 * earlier and leaves this much of the step's time for answering.
 */
export function replyReserveMs(timeoutMs: number): number {
  return Math.min(2_000, Math.max(100, timeoutMs * 0.2));
}

/** The time a step's work may take: its timeout less the reply reserve (at least 1 ms). */
export function stepWorkMs(timeoutMs: number): number {
  return Math.max(1, timeoutMs - replyReserveMs(timeoutMs));
}

/**
 * Ends `episode` as truncated (a scored `timeout` for the trainer) after a step overran its
 * deadline, and answers without reading the page, which may not answer any more.
 */
export function overrunResult(episode: Episode, tabs: Tabs | undefined, action: string, timeoutMs: number): StepResult {
  episode.lastAction = action;
  episode.lastActionError = `TimeoutError: the step did not finish within its deadline (${timeoutMs / 1000} s); the episode ends here, truncated`;
  episode.done = true;
  episode.truncated = true;
  return blankResult(episode, tabs, { timed_out: true, task_info: {}, task_reason: '' });
}
