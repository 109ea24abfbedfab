import type { ChatMessage } from '@gauntlet/proto';
import type { Page } from 'playwright-core';
import type { TaskDisplay } from '../browser/site.js';
import type { PageDeadline } from '../deadline/page-deadline.js';

/** What a task reports after every action. */
export interface TaskStatus {
  /** The page's own reward (MiniWoB's raw reward, may be partial or negative). */
  rawReward: number;
  done: boolean;
  /**
   * The reward for the action just taken, when the task shapes its own (the Gauntlet pays per
   * step). Omitted: MiniWoB's rule, 1 when the episode ends with a positive raw reward, else 0.
   */
  reward?: number;
  reason?: string;
  /** Task-specific facts for metadata (e.g. gauntlet step and type). */
  info?: Record<string, unknown>;
}

/** What an oracle sees: the same observation an agent gets. */
export interface OracleView {
  goal: string;
  axtree_txt: string;
  pruned_html: string;
  url: string;
  focused_element_bid: string;
}

/**
 * One episode of a task, made by `setup`: the goal, the facts the reset reports, and the reward
 * check. Whatever the episode needs to remember (a Gauntlet run's paid steps) lives here, so the
 * next reset simply replaces it.
 */
export interface TaskEpisode {
  goal: string;
  /** Task-specific facts for the reset's metadata (the Gauntlet reports the step and type it starts on). */
  info?: Record<string, unknown>;
  /** Steps before truncation when this episode's options set them (the `web` task's max_steps); default the task's maxSteps. */
  maxSteps?: number;
  /**
   * Reads the episode's progress off `page` (the session's active tab) after every step; `chat`
   * is the episode's chat so far (send_msg_to_user adds `assistant` messages, report_infeasible
   * an `infeasible` one), for tasks whose answer is a message; the session always passes it.
   */
  status(page: Page, chat?: readonly ChatMessage[]): Promise<TaskStatus>;
}

/**
 * A task family member: seeded setup → episode, and an oracle that is a real policy
 * (observation in, action string out). Same seed → same page.
 */
export interface TaskDefinition {
  /** e.g. `click-test`; the benchmark prefix is separate. */
  readonly name: string;
  readonly benchmark: string;
  readonly description: string;
  /** Steps before the episode is truncated; Infinity = never (state reports `max_steps: null`). */
  readonly maxSteps: number;
  /**
   * Action subsets (or presets) used when the reset request names none; BrowserGym's default set
   * when absent. The Gauntlet's canvas needs coordinates, so it asks for `coord` too.
   */
  readonly defaultActionSubsets?: readonly string[];
  /** Listing notes, e.g. `realtime` for the MiniWoB++ tasks BrowserGym leaves out of its registry. */
  readonly flags?: readonly string[];
  /** The browser the task expects, when not the server's default (real MiniWoB++: 332×214 at scale 1.5). */
  readonly display?: TaskDisplay;
  /** How long setup may take for these reset options, when more than the default (e.g. a long start_step fast-forward). */
  setupTimeoutMs?(options: Record<string, unknown>): number;
  /**
   * Loads (or re-seeds in place) the task page and starts an episode. Bad `options` throw
   * ValidationError. `deadline` ends when the reset's deadline passes (the Gauntlet's start_step
   * fast-forward plays many actions during setup).
   */
  setup(page: Page, seed: number, options: Record<string, unknown>, deadline?: PageDeadline): Promise<TaskEpisode>;
  /**
   * Next action of the task's oracle (its scripted oracle) given the current observation; throws OracleError
   * when it cannot tell (real MiniWoB++ pages without a built-in counterpart).
   */
  oracle(view: OracleView): string;
}
