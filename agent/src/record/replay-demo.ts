import type { EnvClient } from '@gauntlet/proto/client';
import { UsageError, type Progress } from '@gauntlet/proto/cli';
import { DemoFileError, readDemo, type Demo } from '../report/demo-file.js';
import { DEMO_ACTION_SET } from './record-demo.js';

export interface ReplayOutcome {
  recorded: number;
  replayed: number;
  /** Actions played before the episode ended (fewer than recorded when it ended early). */
  actions: number;
  done: boolean;
  errors: string[];
}

/** demo.json as `record` wrote it; anything else is a usage error naming --replay. */
export function readReplayDemo(file: string): Demo {
  try {
    return readDemo(file);
  } catch (error) {
    if (error instanceof DemoFileError) throw new UsageError(`--replay ${error.message}`, 'replay');
    throw error;
  }
}

/** Plays the recorded actions on a fresh episode of the same task and seed. */
export async function replayDemo(
  env: EnvClient,
  demo: Demo,
  options: { headed: boolean; signal: AbortSignal; progress: Progress },
): Promise<ReplayOutcome> {
  await env.reset(
    {
      task_name: demo.task,
      seed: demo.seed,
      ...(demo.web ? { options: demo.web } : {}),
      observation: { axtree: true, pruned_html: false, extra_properties: false, screenshot: 'none' },
      action_set: DEMO_ACTION_SET,
      ...(options.headed ? { browser: { headed: true } } : {}),
    },
    { signal: options.signal },
  );
  const outcome: ReplayOutcome = { recorded: demo.reward, replayed: 0, actions: 0, done: false, errors: [] };
  for (const step of demo.steps) {
    const result = await env.step(step.action, { signal: options.signal });
    outcome.actions += 1;
    outcome.replayed += result.reward ?? 0;
    const error = result.observation.metadata.browsergym_obs.last_action_error;
    if (error) outcome.errors.push(`#${step.index} ${step.action}: ${error}`);
    options.progress(`#${step.index} ${step.action} → reward ${result.reward ?? 0}${error ? ` — ${error}` : ''}`);
    if (result.done) {
      outcome.done = true;
      break;
    }
  }
  return outcome;
}
