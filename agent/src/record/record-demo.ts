import type { RecordedStep, WebTaskOptions } from '@gauntlet/proto';
import type { EnvClient } from '@gauntlet/proto/client';
import type { Progress } from '@gauntlet/proto/cli';
import { addRecordedStep } from './double-clicks.js';

/** Every action subset: a person may click, type, scroll, drag or navigate. */
export const DEMO_ACTION_SET = { subsets: ['chat', 'infeas', 'bid', 'coord', 'nav', 'tab'], multi_action: false };
/**
 * What each recorded page keeps: the AXTree (the prompt), the pruned HTML, a PNG, and the element
 * boxes (so the viewer can draw where each action landed).
 */
export const DEMO_OBSERVATION = {
  axtree: true,
  pruned_html: true,
  extra_properties: true,
  screenshot: 'png',
} as const;

/**
 * Resets a recording episode (a visible browser on the env's machine) and collects the person's
 * actions as they happen, until the episode ends, `maxSteps` actions, or `signal` (Ctrl-C) —
 * then the steps so far are returned, never lost.
 */
export async function recordDemo(
  env: EnvClient,
  options: {
    task: string;
    seed: number;
    /** The open-web task's reset options (`record --url`). */
    web?: WebTaskOptions | undefined;
    maxSteps: number;
    signal: AbortSignal;
    progress: Progress;
  },
): Promise<RecordedStep[]> {
  const { task, seed, signal, progress } = options;
  const first = await env.reset(
    {
      task_name: task,
      seed,
      ...(options.web ? { options: options.web } : {}),
      observation: DEMO_OBSERVATION,
      action_set: DEMO_ACTION_SET,
      browser: { record: true },
    },
    { signal },
  );
  progress(`recording ${task} seed ${seed} — goal: ${first.observation.goal}`);
  progress('do the task in the browser window; Ctrl-C stops the recording');
  const steps: RecordedStep[] = [];
  try {
    while (steps.length < options.maxSteps) {
      const reply = await env.record({ wait_s: 5 }, { signal });
      if (reply.step) {
        const count = steps.length;
        const s = addRecordedStep(steps, reply.step);
        const folded = steps.length === count ? ' (one double click: the click before it was its first)' : '';
        progress(`#${s.index} ${s.action} → reward ${s.reward}${s.done ? ' (episode over)' : ''}${folded}`);
      }
      if (!reply.recording || reply.step?.done) break;
    }
  } catch (error) {
    if (!signal.aborted) throw error;
    progress(`stopped after ${steps.length} action(s)`);
  }
  return steps;
}
