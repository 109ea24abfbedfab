import { join } from 'node:path';
import { defineCommand, UsageError, type CommandContext } from '@gauntlet/proto/cli';
import { displayMissing, openEnv } from '../env/headed-env.js';
import { writeDemo } from '../record/demo-files.js';
import { recordDemo } from '../record/record-demo.js';
import { readReplayDemo, replayDemo } from '../record/replay-demo.js';
import { RECORD_OPTIONS } from './record-options.js';

type Context = CommandContext<typeof RECORD_OPTIONS>;

export const recordCommand = defineCommand({
  name: 'record',
  summary: "Record a person's demonstration of a task (demo.json, demo.jsonl for SFT); --replay checks one",
  description:
    "Opens the task in a visible browser and records what the person does there — clicks, double clicks, text entry (one fill per field), selects, Enter/Tab/Escape/arrow keys, scrolls, drags — as BrowserGym actions on the env's own bids, with the page before each action and the reward after it. Stops when the episode ends or on Ctrl-C, and writes <out>/demo.json (observations, actions, rewards, times), <out>/screenshots/<n>.png and <out>/demo.jsonl (an SFT record in gauntlet-env collect's format, for gauntlet-trainer sft). Needs a display (a desktop, or xvfb-run). --replay DEMO_JSON plays a recording's actions on a fresh episode with the same task and seed and says whether it reaches the same reward.",
  options: RECORD_OPTIONS,
  examples: [
    'gauntlet-agent record --task click-button --seed 3 --out demos/click',
    'gauntlet-agent record --replay demos/click/demo.json',
  ],
  async run(context) {
    const v = context.values;
    if (v.replay !== undefined) return replay(context, v.replay);
    if (!v.task) throw new UsageError('--task: name the task to record (or --replay a demo.json)', 'task');
    if (!v.env) {
      const missing = displayMissing('record');
      if (missing) throw missing;
    }
    const task = v.task;
    const out = v.out ?? join('demos', `${task.replace(/[^\w.-]+/g, '_')}-${v.seed}-${stamp()}`);
    const opened = await openEnv({
      url: v.env,
      token: v['env-token'],
      bin: v['env-bin'],
      headed: true,
      progress: context.progress,
    });
    try {
      const steps = await recordDemo(opened.env, {
        task,
        seed: v.seed,
        maxSteps: v['max-steps'],
        signal: context.signal,
        progress: context.progress,
      });
      const demo = writeDemo(out, task, v.seed, steps);
      context.io.out(
        `recorded ${steps.length} action(s), reward ${demo.reward}${demo.done ? '' : ' (stopped before the episode ended)'} → ${join(out, 'demo.json')}, ${join(out, 'demo.jsonl')}`,
      );
      return 0;
    } finally {
      await opened.close();
    }
  },
});

async function replay(context: Context, file: string): Promise<number> {
  const v = context.values;
  const demo = readReplayDemo(file);
  if (v.headed && !v.env) {
    const missing = displayMissing('--headed');
    if (missing) throw missing;
  }
  const opened = await openEnv({
    url: v.env,
    token: v['env-token'],
    bin: v['env-bin'],
    headed: v.headed,
    progress: context.progress,
  });
  try {
    const result = await replayDemo(opened.env, demo, {
      headed: v.headed,
      signal: context.signal,
      progress: context.progress,
    });
    const same = result.replayed === result.recorded && result.actions === demo.steps.length;
    const early =
      result.actions < demo.steps.length
        ? ` (the episode ended after ${result.actions} of ${demo.steps.length} actions)`
        : '';
    context.io.out(
      `${same ? 'faithful' : 'NOT faithful'}: replay reward ${result.replayed}, recorded ${result.recorded}${early} — ${demo.task} seed ${demo.seed}`,
    );
    return same ? 0 : 1;
  } finally {
    await opened.close();
  }
}

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');
