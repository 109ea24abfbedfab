import type { Page } from 'playwright-core';

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
  /** Loads (or re-seeds in place) the task page; returns the goal. */
  setup(page: Page, seed: number, options: Record<string, unknown>): Promise<{ goal: string }>;
  status(page: Page): Promise<TaskStatus>;
  /** Next action for the oracle policy given the current observation. */
  oracle(view: OracleView): string;
}
