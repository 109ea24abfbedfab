import type { Page } from 'playwright-core';
import { TASK_ORIGIN } from '../site.js';
import type { TaskDefinition, TaskStatus } from '../task.js';
import type { OraclePolicy } from './oracle.js';

/** What one MiniWoB-style task contributes: its page and its oracle; the rest is shared. */
export interface MiniwobTaskSpec {
  name: string;
  description: string;
  html: string;
  oracle: OraclePolicy;
  maxSteps?: number;
}

/** The runtime `core.js` installs on every task page. */
interface PageRuntime {
  reset(seed: number): { goal: string };
  status(): { rawReward: number; done: boolean; reason: string };
}
type TaskWindow = Window & { gauntletTask?: PageRuntime };

export function miniwobPath(name: string): string {
  return `/miniwob/${name}.html`;
}

export function miniwobTask(spec: MiniwobTaskSpec): TaskDefinition {
  const url = TASK_ORIGIN + miniwobPath(spec.name);
  return {
    name: spec.name,
    benchmark: 'miniwob',
    description: spec.description,
    maxSteps: spec.maxSteps ?? 10,
    oracle: spec.oracle,
    async setup(page: Page, seed: number): Promise<{ goal: string }> {
      if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
      // Re-seeding in place skips a page load: the runtime redraws the task area itself.
      if (page.url() !== url) await page.goto(url);
      return page.evaluate((s) => {
        const runtime = (window as TaskWindow).gauntletTask;
        if (!runtime) throw new Error('the MiniWoB task runtime (core.js) is not loaded');
        return runtime.reset(s);
      }, seed);
    },
    async status(page: Page): Promise<TaskStatus> {
      const state = await page.evaluate(() => (window as TaskWindow).gauntletTask?.status() ?? null);
      // The agent may have navigated away (goto, a real link): the episode is simply not won.
      if (!state) return { rawReward: 0, done: false, reason: `not on the task page (${page.url()})` };
      return state;
    },
  };
}
