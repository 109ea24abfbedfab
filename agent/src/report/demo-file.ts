import { readFileSync } from 'node:fs';
import { WebTaskOptions } from '@gauntlet/proto';
import type { ActionMark } from './action-marks.js';

// demo.json, the file `record` writes (record/demo-files.ts) and `record --replay` and `view` read.

/** One recorded action in demo.json, with the page it was taken on. */
export interface DemoStep {
  index: number;
  action: string;
  observation: {
    url: string;
    /** The AXTree text, as the env rendered it. */
    axtree: string;
    /** The env's pruned HTML ('' when it sent none). */
    pruned_html: string;
    /** The page's PNG, relative to demo.json's folder (null when the env sent no picture). */
    screenshot: string | null;
  };
  /**
   * Where the action landed on the screenshot (the bid's box from the page's element properties,
   * or a coordinate point), as a run's turns record it. Absent in recordings made before it was kept.
   */
  marks?: ActionMark[];
  reward: number;
  done: boolean;
  /** Seconds from the reset to the person's action. */
  wall_time_s: number;
}

/** demo.json: what `record` saw and did, for `record --replay`, the viewer and the trainers. */
export interface Demo {
  task: string;
  seed: number;
  goal: string;
  recorded_at: string;
  /** Sum of the step rewards. */
  reward: number;
  /** Whether the episode ended (false when the recording was stopped first). */
  done: boolean;
  /** An open-web recording (`record --url`): the `web` task's reset options, so a replay starts on the same page. */
  web?: WebTaskOptions;
  steps: DemoStep[];
}

/** A file that is not a demo.json as `gauntlet-agent record` writes it. */
export class DemoFileError extends Error {
  override name = 'DemoFileError';
}

/**
 * Reads demo.json and checks its shape (for `record --replay` and `view`); what is wrong is
 * named with the file and, for a step, its place in `steps`.
 */
export function readDemo(file: string): Demo {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new DemoFileError(`${file}: cannot read it as JSON (${(error as Error).message})`);
  }
  const bad = (what: string) => new DemoFileError(`${file}: not a demo.json from gauntlet-agent record (${what})`);
  if (!isObject(value)) throw bad('not an object');
  for (const key of ['task', 'goal'] as const) if (typeof value[key] !== 'string') throw bad(`${key} is not text`);
  if (!Number.isInteger(value['seed'])) throw bad('seed is not an integer');
  if (typeof value['reward'] !== 'number' || typeof value['done'] !== 'boolean') throw bad('no reward or done');
  if (value['web'] !== undefined) {
    const web = WebTaskOptions.safeParse(value['web']);
    if (!web.success) throw bad(`web: ${web.error.issues[0]!.path.join('.')} ${web.error.issues[0]!.message}`);
  }
  if (!Array.isArray(value['steps'])) throw bad('steps is not a list');
  value['steps'].forEach((step: unknown, i) => {
    const problem = stepProblem(step);
    if (problem) throw bad(`steps.${i}: ${problem}`);
  });
  return value as unknown as Demo;
}

function stepProblem(step: unknown): string | null {
  if (!isObject(step)) return 'not an object';
  if (!Number.isInteger(step['index'])) return 'index is not an integer';
  if (typeof step['action'] !== 'string') return 'action is not text';
  if (typeof step['reward'] !== 'number' || typeof step['done'] !== 'boolean') return 'no reward or done';
  if (typeof step['wall_time_s'] !== 'number') return 'wall_time_s is not a number';
  const obs = step['observation'];
  if (!isObject(obs) || typeof obs['url'] !== 'string' || typeof obs['axtree'] !== 'string')
    return 'observation has no url or axtree';
  if (obs['screenshot'] !== null && typeof obs['screenshot'] !== 'string')
    return 'observation.screenshot is not a path';
  if (step['marks'] !== undefined && !Array.isArray(step['marks'])) return 'marks is not a list';
  return null;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
