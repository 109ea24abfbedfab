import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Demo, DemoStep } from '../record/demo-files.js';
import type { ViewEpisode, ViewTurn } from './view-types.js';

/** A file that is not a demo.json as `gauntlet-agent record` writes it. */
export class DemoFileError extends Error {
  override name = 'DemoFileError';
}

/**
 * A person's demonstration (demo.json from `record`) as one episode of the viewer: each recorded
 * action is a step with the page it was taken on (screenshot, AXTree), the action — its bid box
 * drawn when the recording kept the element boxes — and the reward after it. There is no model
 * reply to show (text null).
 */
export function demoEpisode(file: string): ViewEpisode {
  const demo = readDemo(file);
  const outcome = !demo.done ? 'stopped' : demo.reward > 0 ? 'success' : 'fail';
  return {
    id: `${demo.task}#${demo.seed}/demo`,
    task: demo.task,
    seed: demo.seed,
    outcome,
    reward: demo.reward,
    error: null,
    note: `a person's demonstration, recorded ${demo.recorded_at || 'at an unknown time'} · goal: ${demo.goal}`,
    final_screenshot: null,
    turns: demo.steps.map((step) => demoTurn(step)),
  };
}

function demoTurn(step: DemoStep): ViewTurn {
  return {
    index: step.index,
    actor: `person (${step.wall_time_s.toFixed(1)} s)`,
    url: step.observation.url,
    text: null,
    action: step.action,
    parse_error: false,
    env_error: '',
    reward: step.reward,
    done: step.done,
    screenshot: step.observation.screenshot,
    marks: step.marks ?? [],
    page: () => step.observation.axtree,
  };
}

/** Reads and checks demo.json; what is wrong is named with the file (and the step). */
export function readDemo(file: string): Demo {
  const name = basename(file);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new DemoFileError(`${name}: not JSON (${(error as Error).message})`);
  }
  const bad = (what: string) => new DemoFileError(`${name}: not a demo.json from gauntlet-agent record (${what})`);
  if (!isObject(value)) throw bad('not an object');
  for (const key of ['task', 'goal'] as const) if (typeof value[key] !== 'string') throw bad(`${key} is not text`);
  if (!Number.isInteger(value['seed'])) throw bad('seed is not an integer');
  if (typeof value['reward'] !== 'number' || typeof value['done'] !== 'boolean') throw bad('no reward or done');
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
