import type { Page } from 'playwright-core';
import type { Deadline } from '../deadline/deadline.js';

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

/** What an oracle solver sees: the same observation an agent gets. */
export interface OracleView {
  goal: string;
  axtree_txt: string;
  pruned_html: string;
  url: string;
  focused_element_bid: string;
}

/**
 * A task family member: seeded setup → goal, status after each action, and an oracle that is a
 * real policy (observation in, action string out). Same seed → same page.
 */
export interface TaskDefinition {
  /** e.g. `click-test`; the benchmark prefix is separate. */
  readonly name: string;
  readonly benchmark: string;
  readonly description: string;
  readonly maxSteps: number;
  /**
   * Action subsets (or presets) used when the reset request names none; BrowserGym's default set
   * when absent. The Gauntlet's canvas needs coordinates, so it asks for `coord` too.
   */
  readonly defaultActionSubsets?: readonly string[];
  /**
   * Loads (or re-seeds in place) the task page; returns the goal and, optionally, task facts for
   * the reset's metadata (the Gauntlet reports the step and type an episode starts on).
   * Bad `options` throw ValidationError. `deadline` ends when the reset's deadline passes (the
   * Gauntlet's start_step fast-forward plays many actions during setup).
   */
  /** How long setup may take for these reset options, when more than the default (e.g. a long start_step fast-forward). */
  setupTimeoutMs?(options: Record<string, unknown>): number;
  setup(
    page: Page,
    seed: number,
    options: Record<string, unknown>,
    deadline?: Deadline,
  ): Promise<{ goal: string; info?: Record<string, unknown> }>;
  status(page: Page): Promise<TaskStatus>;
  /** Next action for the oracle policy given the current observation. */
  oracle(view: OracleView): string;
}
