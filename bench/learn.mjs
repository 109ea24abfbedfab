// GRPO learning benchmark: the real stack on this machine — Redis, one env server, the trainer
// (`gauntlet-trainer grpo` with its in-process policy server) and rollout-worker processes — trains
// a policy on one task from scratch and prints its success-rate curve as JSON; the plot is written
// as an SVG. The baseline is the untrained policy's success, measured in the same run (update 1's
// groups are sampled before any update). Target on click-test: ≤ 0.3 at the start, ≥ 0.9 (over the
// last --window episodes) within 10 minutes.
//
//   node bench/learn.mjs [--minutes 10] [--workers 2] [--task click-test] [--out DIR] [--help]
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchOptions } from './support/bench-options.mjs';
import { startBin, startEnvServer } from './support/processes.mjs';
import { dropQueues } from './support/queues.mjs';
import { successCurveSvg } from './support/curve-svg.mjs';
import { TINY_RECIPE } from './support/tiny-recipe.mjs';

const OPTIONS = {
  minutes: { type: 'string', default: '10', help: 'Wall-clock budget of the training run' },
  workers: { type: 'string', default: '2', help: 'Rollout-worker processes' },
  concurrency: { type: 'string', default: '4', help: 'Episodes each worker plays at once' },
  task: { type: 'string', default: 'click-test', help: 'Task to learn' },
  target: { type: 'string', default: '0.9', help: 'Success rate to reach over the last --window episodes' },
  window: { type: 'string', default: '64', help: 'Episodes the rolling success rate is measured over' },
  full: { type: 'boolean', default: false, help: 'Keep training for all --minutes after the target is reached' },
  out: { type: 'string', default: 'bench/results', help: 'Folder for learn-curve.svg and learn.json' },
  redis: { type: 'string', default: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', help: 'Redis URL' },
  'trainer-arg': { type: 'string', multiple: true, default: [], help: 'Extra flag for gauntlet-trainer grpo (repeat)' },
  help: { type: 'boolean', default: false, help: 'Show this help' },
};

const RECIPE = TINY_RECIPE;
const { values, number } = benchOptions(
  OPTIONS,
  'Usage: node bench/learn.mjs [options]\n\nTrains a policy with GRPO on the real stack and prints its success curve as JSON.\n',
);
const minutes = number('minutes', 0.5);
const workers = Math.floor(number('workers', 1));
const concurrency = Math.floor(number('concurrency', 1));
const target = number('target', 0);
const windowSize = Math.floor(number('window', 1));
const log = (line) => process.stderr.write(`[learn] ${line}\n`);

const work = await mkdtemp(join(tmpdir(), 'gauntlet-learn-'));
const prefix = `learn-${process.pid}-${Date.now().toString(36)}`;
const stops = [];
const stopAll = async () => {
  while (stops.length)
    await stops
      .pop()()
      .catch(() => {});
};
// Ctrl-C ends training early: the curve so far is still printed, and everything is cleaned up.
let interrupted = false;
process.once('SIGINT', () => (interrupted = true));

try {
  const env = await startEnvServer(workers * concurrency + 2);
  stops.push(env.stop);
  const grpc = env.grpc;
  log(`env server ${grpc}`);

  const outputDir = join(work, 'run');
  const started = Date.now();
  const trainer = await startBin(
    'trainer',
    [
      'grpo',
      '--task',
      values.task,
      '--max-steps',
      '100000',
      '--redis',
      values.redis,
      '--prefix',
      prefix,
      '--run-name',
      'learn',
      '--output-dir',
      outputDir,
      '--port',
      '0',
      ...RECIPE,
      ...values['trainer-arg'],
    ],
    /policy server (http:\/\/\S+?);/,
    { onLine: (line) => line.startsWith('grpo:') && log(line) },
  );
  stops.push(trainer.stop);
  const policy = trainer.match[1];
  log(`trainer ${policy} (curves: ${policy}/curves)`);

  for (let i = 0; i < workers; i++) {
    const worker = await startBin(
      'rollout-worker',
      [
        'run',
        '--env',
        grpc,
        '--policy',
        policy,
        '--redis',
        values.redis,
        '--prefix',
        prefix,
        '--concurrency',
        String(concurrency),
        '--metrics-port',
        '0',
      ],
      /./,
    );
    stops.push(worker.stop);
  }
  log(`${workers} workers × ${concurrency} episodes at once`);

  const curve = [];
  const recent = [];
  let reachedAt = null;
  const deadline = started + minutes * 60_000;
  let seen = 0;
  while (Date.now() < deadline && !interrupted) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const text = await readFile(join(outputDir, 'metrics.jsonl'), 'utf8').catch(() => '');
    const lines = text.split('\n').filter(Boolean);
    for (const line of lines.slice(seen)) {
      const u = JSON.parse(line);
      const success = u.successByTask[values.task] ?? Object.values(u.successByTask)[0] ?? 0;
      const episodes = u.trajectories ?? 16;
      for (let i = 0; i < episodes; i++) recent.push(i < Math.round(success * episodes) ? 1 : 0);
      recent.splice(0, Math.max(0, recent.length - windowSize));
      const rolling = recent.reduce((a, b) => a + b, 0) / recent.length;
      const point = {
        t_s: +((Date.now() - started) / 1000).toFixed(1),
        update: u.step,
        success: +success.toFixed(3),
        rolling_success: +rolling.toFixed(3),
        reward: u.metrics.reward ?? null,
        kl: u.metrics.kl ?? null,
      };
      curve.push(point);
      log(
        `update ${point.update} at ${point.t_s}s: success ${point.success}, last ${recent.length} episodes ${point.rolling_success}`,
      );
      if (reachedAt === null && recent.length >= windowSize && rolling >= target) reachedAt = point;
    }
    seen = lines.length;
    if (reachedAt && !values.full) break;
  }
  await stopAll();
  const result = {
    bench: 'learn',
    task: values.task,
    model: 'built-in tiny (hidden 64, 2 layers)',
    recipe: [...RECIPE, ...values['trainer-arg']].join(' '),
    workers,
    concurrency,
    baseline_success: curve[0]?.success ?? null,
    final_rolling_success: curve.at(-1)?.rolling_success ?? null,
    target,
    reached_target: reachedAt !== null,
    time_to_target_s: reachedAt?.t_s ?? null,
    updates_to_target: reachedAt?.update ?? null,
    budget_s: minutes * 60,
    curve,
  };
  await mkdir(values.out, { recursive: true });
  await writeFile(join(values.out, 'learn.json'), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(
    join(values.out, 'learn-curve.svg'),
    successCurveSvg(curve, { target, title: `GRPO on ${values.task}` }),
  );
  console.log(JSON.stringify(result));
  log(`plot: ${join(values.out, 'learn-curve.svg')}`);
} finally {
  await stopAll();
  await rm(work, { recursive: true, force: true });
  await dropQueues(values.redis, prefix);
}
