import { join } from 'node:path';
import { defineCommand, UsageError, type CommandContext } from '@gauntlet/proto/cli';
import { displayMissing, openEnv } from '../env/headed-env.js';
import { writeDemo } from '../record/demo-files.js';
import { recordDemo } from '../record/record-demo.js';
import { readReplayDemo, replayDemo } from '../record/replay-demo.js';
import { RECORD_OPTIONS } from './record-options.js';
import { flagWebOptions, webRun } from './web-run.js';

type Context = CommandContext<typeof RECORD_OPTIONS>;

export const recordCommand = defineCommand({
  name: 'record',
  summary: "Record a person's demonstration of a task (demo.json, demo.jsonl for SFT); --replay checks one",
  description:
    "Opens the task in a visible browser and records what the person does there — clicks, double clicks, text entry (one fill per field), selects, Enter/Tab/Escape/arrow keys, scrolls, drags — as BrowserGym actions on the env's own bids, with the page before each action and the reward after it. Stops when the episode ends or on Ctrl-C, and writes <out>/demo.json (observations, actions, rewards, times), <out>/screenshots/<n>.png and <out>/demo.jsonl (an SFT record in gauntlet-env collect's format, for gauntlet-trainer sft). Needs a display (a desktop, or xvfb-run). With --url and --goal instead of --task it records on any page (the env's open-web task; Ctrl-C ends it). --replay DEMO_JSON plays a recording's actions on a fresh episode with the same task and seed and says whether it reaches the same reward.",
  options: RECORD_OPTIONS,
  examples: [
    'gauntlet-agent record --task click-button --seed 3 --out demos/click',
    "gauntlet-agent record --url http://127.0.0.1:3000/ --goal 'Place an order' --out demos/shop",
    'gauntlet-agent record --replay demos/click/demo.json',
  ],
  async run(context) {
    const v = context.values;
    if (v.replay !== undefined) return replay(context, v.replay);
    const web = webRun(v);
    if (!v.task && !web)
      throw new UsageError('--task: name the task to record (or --url and --goal, or --replay a demo.json)', 'task');
    if (!v.env) {
      const missing = displayMissing('record');
      if (missing) throw missing;
    }
    const task = web?.task ?? v.task!;
    const name = web ? task : `${task.replace(/[^\w.-]+/g, '_')}-${v.seed}`;
    const out = v.out ?? join('demos', `${name}-${stamp()}`);
    const opened = await openEnv({
      url: v.env,
      token: v['env-token'],
      bin: v['env-bin'],
      headed: true,
      envArgs: web?.envArgs,
      progress: context.progress,
    });
    try {
      const steps = await recordDemo(opened.env, {
        task,
        seed: v.seed,
        web: web?.options,
        maxSteps: v['max-steps'],
        signal: context.signal,
        progress: context.progress,
      }).catch((error: unknown) => {
        flagWebOptions(error);
        throw error;
      });
      const demo = writeDemo(out, task, v.seed, steps, web?.options);
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
  // A local env may open the recorded site (and only it).
  const origin = demo.web ? new URL(demo.web.url).origin : undefined;
  const opened = await openEnv({
    url: v.env,
    token: v['env-token'],
    bin: v['env-bin'],
    headed: v.headed,
    envArgs: origin ? ['--allow-origin', origin] : [],
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
