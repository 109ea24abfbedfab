import { ValidationError } from '@gauntlet/proto';
import type { Page } from 'playwright-core';
import { TASK_ORIGIN } from '../../browser/site.js';
import type { TaskDefinition, TaskEpisode, TaskStatus } from '../task.js';
import type { OraclePolicy } from './oracle.js';

/**
 * What one MiniWoB-style task contributes, from its folder `tasks/miniwob/<name>/`: its page
 * (built with `taskPageHtml`) and its oracle; the episode, reward and serving are shared.
 */
export interface MiniwobTaskSpec {
  /** The folder's name, e.g. `click-test`. */
  name: string;
  description: string;
  html: string;
  oracle: OraclePolicy;
  maxSteps?: number;
}

/** The runtime `core.js` installs on every task page. */
interface PageRuntime {
  reset(seed: number): { goal: string; episode: number };
  status(): { rawReward: number; done: boolean; reason: string; episode: number };
}
type TaskWindow = Window & { gauntletTask?: PageRuntime };

export function miniwobPath(name: string): string {
  return `/miniwob/${name}.html`;
}

/** The task as the registry serves it, under `benchmark` (`miniwob`, unless real MiniWoB++ takes that name). */
export function miniwobTask(spec: MiniwobTaskSpec, benchmark = 'miniwob'): TaskDefinition {
  const url = TASK_ORIGIN + miniwobPath(spec.name);
  return {
    name: spec.name,
    benchmark,
    description: spec.description,
    maxSteps: spec.maxSteps ?? 10,
    oracle: spec.oracle,
    async setup(page: Page, seed: number, options: Record<string, unknown>): Promise<TaskEpisode> {
      rejectOptions(spec.name, options);
      if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
      // Re-seeding in place skips a page load: the runtime redraws the task area itself.
      if (page.url() !== url) await page.goto(url);
      const { goal, episode } = await page.evaluate((s) => {
        const runtime = (window as TaskWindow).gauntletTask;
        if (!runtime) throw new Error('the MiniWoB task runtime (core.js) is not loaded');
        return runtime.reset(s);
      }, seed);
      return { goal, status: (current) => readStatus(current, episode) };
    },
  };
}

/** Built-in MiniWoB-style tasks take no reset options: a typo must not pass silently. */
function rejectOptions(task: string, options: Record<string, unknown>): void {
  const keys = Object.keys(options);
  if (keys.length === 0) return;
  const msg = `${task} takes no options (got ${keys.map((k) => JSON.stringify(k)).join(', ')})`;
  throw new ValidationError(
    `options: ${msg}`,
    keys.map((key) => ({ loc: ['body', 'options', key], msg, type: 'value_error', input: options[key] })),
  );
}

async function readStatus(page: Page, episode: number): Promise<TaskStatus> {
  const state = await page.evaluate(() => (window as TaskWindow).gauntletTask?.status() ?? null);
  // The agent may have navigated away (goto, a real link): the episode is simply not won.
  if (!state) return { rawReward: 0, done: false, reason: `not on the task page (${page.url()})` };
  // A reload starts the page's numbering over: what it shows now is not this episode.
  if (state.episode !== episode) return { rawReward: 0, done: false, reason: 'the task page was reloaded' };
  return { rawReward: state.rawReward, done: state.done, reason: state.reason };
}
