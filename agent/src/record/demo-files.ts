import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedStep, StepResult, WebTaskOptions } from '@gauntlet/proto';
import { renderObservation, systemPromptFor } from '@gauntlet/proto/agent';
import { actionMarks } from '../report/action-marks.js';
import type { Demo } from '../report/demo-file.js';

export type { Demo, DemoStep } from '../report/demo-file.js';

/**
 * Writes a demonstration: demo.json (above), screenshots/<index>.png beside it, and demo.jsonl —
 * one SFT record in the conversational format `gauntlet-env collect` writes (system prompt, then
 * per action the observation as the user turn and the action as the assistant turn, each
 * rendered by @gauntlet/proto/agent as rollouts and oracle data are), which `gauntlet-trainer sft`
 * reads unchanged.
 */
export function writeDemo(
  dir: string,
  task: string,
  seed: number,
  steps: readonly RecordedStep[],
  web?: WebTaskOptions,
): Demo {
  mkdirSync(join(dir, 'screenshots'), { recursive: true });
  const demo: Demo = {
    task,
    seed,
    goal: steps[0]?.before.observation.goal ?? web?.goal ?? '',
    recorded_at: new Date().toISOString(),
    reward: steps.reduce((sum, s) => sum + s.reward, 0),
    done: steps.at(-1)?.done ?? false,
    ...(web ? { web } : {}),
    steps: steps.map((step) => ({
      index: step.index,
      action: step.action,
      observation: {
        url: step.before.observation.url,
        axtree: step.before.observation.axtree_txt,
        pruned_html: step.before.observation.pruned_html,
        screenshot: savePicture(dir, step.index, step.before),
      },
      marks: actionMarks(step.action, step.before.metadata.browsergym_obs?.extra_element_properties ?? {}),
      reward: step.reward,
      done: step.done,
      wall_time_s: step.wall_time_s,
    })),
  };
  writeFileSync(join(dir, 'demo.json'), `${JSON.stringify(demo, null, 2)}\n`);
  writeFileSync(join(dir, 'demo.jsonl'), steps.length ? `${JSON.stringify(sftRecord(task, seed, steps))}\n` : '');
  return demo;
}

/** The demonstration as one chat, as collect's SFT records are (same keys, same rendering). */
export function sftRecord(task: string, seed: number, steps: readonly RecordedStep[]) {
  const episode = `${task}#${seed}`;
  return {
    id: `${episode}/demo`,
    episode,
    task,
    seed,
    step: 1,
    type: task,
    reward: steps.reduce((sum, s) => sum + s.reward, 0),
    messages: [
      { role: 'system', content: systemPromptFor(task) },
      ...steps.flatMap((step, i) => [
        { role: 'user', content: renderObservation(step.before, { lastAction: steps[i - 1]?.action ?? '' }) },
        { role: 'assistant', content: step.action, reward: step.reward },
      ]),
    ],
  };
}

function savePicture(dir: string, index: number, result: StepResult): string | null {
  const shot = result.observation.metadata.screenshot_encoded;
  if (!shot || shot.format !== 'png') return null;
  const path = join('screenshots', `${index}.png`);
  writeFileSync(join(dir, path), Buffer.from(shot.base64, 'base64'));
  return path;
}
