import { ValidationError } from '@gauntlet/proto';
import type { Page } from 'playwright-core';
import type { PageDeadline } from '../../deadline/page-deadline.js';
import { OracleError } from '../oracle-helpers/action-text.js';
import type { TaskDisplay } from '../../browser/site.js';
import type { OracleView, TaskDefinition, TaskEpisode, TaskStatus } from '../task.js';
import { MAX_BROWSERGYM_SEED, miniwobPageSeed } from './numpy-seed.js';
import { readGoalInPage, readStateInPage, startEpisodeInPage, taskReadyInPage } from './page-protocol.js';

/** BrowserGym's MiniWoB++ browser: a 332×214 viewport; screenshots and coordinates at scale 1.5. */
export const MINIWOB_DISPLAY: TaskDisplay = { width: 332, height: 214, deviceScaleFactor: 1.5 };
/** BrowserGym's episode length: long enough that MiniWoB's own timer never ends an episode. */
const EPISODE_MAX_TIME_MS = 1_000_000;
const READY_TIMEOUT_MS = 10_000;

export interface RealTaskSpec {
  name: string;
  /** The task page: base URL + name + `.html`. */
  url: string;
  realtime: boolean;
  /** Our built-in task of the same name, whose oracle may solve the real page too. */
  oracle?: (view: OracleView) => string;
}

/** One real MiniWoB++ task, played with BrowserGym's episode semantics. */
export function realMiniwobTask(spec: RealTaskSpec): TaskDefinition {
  const { name, url } = spec;
  return {
    name,
    benchmark: 'miniwob',
    description: spec.realtime
      ? `MiniWoB++ ${name} (real-time: moves on its own clock; BrowserGym leaves it out).`
      : `MiniWoB++ ${name}, served from ${url.slice(0, url.lastIndexOf('/') + 1)}`,
    // BrowserGym never truncates: the episode ends when MiniWoB says done (its own clock included).
    maxSteps: Number.POSITIVE_INFINITY,
    display: MINIWOB_DISPLAY,
    ...(spec.realtime ? { flags: ['realtime'] } : {}),
    async setup(
      page: Page,
      seed: number,
      options: Record<string, unknown>,
      deadline?: PageDeadline,
    ): Promise<TaskEpisode> {
      rejectOptions(name, options);
      if (!Number.isInteger(seed) || seed < 0 || seed > MAX_BROWSERGYM_SEED)
        throw new ValidationError(`seed: MiniWoB++ seeds are 0..${MAX_BROWSERGYM_SEED}, as NumPy takes them`, [
          { loc: ['body', 'seed'], msg: `must be 0..${MAX_BROWSERGYM_SEED}`, type: 'value_error', input: seed },
        ]);
      // A fresh document every episode, as BrowserGym: task scripts keep state in globals.
      const response = await page.goto(url);
      if (response && !response.ok())
        throw new Error(
          `MiniWoB++ page ${url} answered HTTP ${response.status()}: is ${name}.html in the served folder?`,
        );
      await page.evaluate(startEpisodeInPage, { pageSeed: miniwobPageSeed(seed), maxTimeMs: EPISODE_MAX_TIME_MS });
      // Pages that load data first (the flight tasks) say so with WOB_TASK_READY = false.
      const ready = page.waitForFunction(taskReadyInPage, undefined, { timeout: READY_TIMEOUT_MS });
      await (deadline ? deadline.race(ready) : ready);
      const goal = await page.evaluate(readGoalInPage);
      return {
        goal,
        info: { ...(await page.evaluate(readStateInPage)) },
        status: (current) => readStatus(page, url, current),
      };
    },
    oracle: (view) => {
      if (!spec.oracle) throw new OracleError(`no oracle for the real MiniWoB++ task ${name}`);
      return spec.oracle(view);
    },
  };
}

/** BrowserGym's validate: another tab or another URL ends the episode unrewarded. */
async function readStatus(taskPage: Page, url: string, current: Page): Promise<TaskStatus> {
  if (current !== taskPage) return { rawReward: 0, done: true, reward: 0, reason: 'invalid page, terminating task' };
  if (current.url() !== url) return { rawReward: 0, done: true, reward: 0, reason: 'invalid url, terminating task' };
  const state = await current.evaluate(readStateInPage);
  if (!state) return { rawReward: 0, done: true, reward: 0, reason: 'the MiniWoB++ page lost its state' };
  const raw = state.RAW_REWARD_GLOBAL;
  return {
    rawReward: raw,
    done: state.DONE_GLOBAL,
    // BrowserGym: reward = 1 if raw > 0 else 0 (partial credit counts as success; raw is reported too).
    reward: raw > 0 ? 1 : 0,
    reason: state.REWARD_REASON ?? (state.DONE_GLOBAL ? 'done' : 'in progress'),
    info: { ...state },
  };
}

function rejectOptions(task: string, options: Record<string, unknown>): void {
  const keys = Object.keys(options);
  if (keys.length === 0) return;
  const msg = `MiniWoB++ ${task} takes no options (got ${keys.map((k) => JSON.stringify(k)).join(', ')})`;
  throw new ValidationError(
    `options: ${msg}`,
    keys.map((key) => ({ loc: ['body', 'options', key], msg, type: 'value_error', input: options[key] })),
  );
}
