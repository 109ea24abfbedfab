// Step-level credit benchmark: GRPO against GiGPO (`grpo --advantage gigpo`) on multi-step tasks,
// in one run on the real stack (Redis, one env server, the trainer with its in-process policy
// server, rollout-worker processes). Each task is trained from scratch twice with the same seed,
// recipe and wall-clock budget, once per advantage; `grpo` is the same-run baseline, and the
// random policy's success on the same turn budget is measured first (where `gauntlet-worker eval`
// can play the task as trained). It prints, per task and arm, the success curve over time and
// GiGPO's anchor metrics, as JSON.
//
//   node bench/gigpo.mjs [--minutes 5] [--task miniwob.login-user] [--task gauntlet] [--help]
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchOptions, stopStack } from './support/bench-options.mjs';
import { startBin, startEnvServer } from './support/processes.mjs';
import { dropQueues } from './support/queues.mjs';
import { runBin } from './support/run-bin.mjs';
import { TINY_RECIPE } from './support/tiny-recipe.mjs';

const OPTIONS = {
  minutes: { type: 'string', default: '5', help: 'Wall-clock budget of each training run (task × arm)' },
  task: {
    type: 'string',
    multiple: true,
    default: ['miniwob.login-user', 'gauntlet'],
    help: 'Multi-step task to train on (repeat; default miniwob.login-user and gauntlet); gauntlet runs with the --start-step curriculum',
  },
  'start-step': { type: 'string', default: '28', help: 'Where the Gauntlet starts (moving earlier as it succeeds)' },
  'step-weight': { type: 'string', default: '1', help: 'GiGPO --step-weight' },
  gamma: { type: 'string', default: '0.95', help: 'GiGPO --gamma' },
  workers: { type: 'string', default: '2', help: 'Rollout-worker processes' },
  concurrency: { type: 'string', default: '4', help: 'Episodes each worker plays at once' },
  window: { type: 'string', default: '64', help: 'Episodes the rolling success rate is measured over' },
  'random-episodes': { type: 'string', default: '64', help: "Episodes of the random policy's baseline per task" },
  redis: { type: 'string', default: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', help: 'Redis URL' },
  'trainer-arg': {
    type: 'string',
    multiple: true,
    default: [],
    help: 'Extra flag for gauntlet-trainer grpo in both arms, after the recipe (repeat; e.g. --trainer-arg=--max-turns=4)',
  },
  help: { type: 'boolean', default: false, help: 'Show this help' },
};

// The learning benchmarks' recipe, with several turns per episode so that there are steps to
// credit, and one seed for both arms. Not tuned per arm.
const RECIPE = [...TINY_RECIPE, '--max-turns', '6', '--temperature', '1.5', '--seed', '0'];
const { values, number } = benchOptions(
  OPTIONS,
  'Usage: node bench/gigpo.mjs [options]\n\nGRPO vs GiGPO success over time on multi-step tasks, as JSON.\n',
);
const minutes = number('minutes', 0.25);
const startStep = Math.floor(number('start-step', 1, 30));
const stepWeight = number('step-weight', 0);
const gamma = number('gamma', 0, 1);
const workers = Math.floor(number('workers', 1));
const concurrency = Math.floor(number('concurrency', 1));
const windowSize = Math.floor(number('window', 1));
const randomEpisodes = Math.floor(number('random-episodes', 1));
const log = (line) => process.stderr.write(`[gigpo] ${line}\n`);
const ARMS = {
  grpo: ['--advantage', 'grpo'],
  gigpo: ['--advantage', 'gigpo', '--step-weight', String(stepWeight), '--gamma', String(gamma)],
};
const isGauntlet = (task) => /^gauntlet(\.gauntlet)?$/.test(task);
/** The last --max-turns among grpo flags (`--max-turns N` or `--max-turns=N`): the one grpo uses. */
function turnsOf(args) {
  let turns;
  args.forEach((arg, i) => {
    if (arg === '--max-turns') turns = args[i + 1];
    else if (arg.startsWith('--max-turns=')) turns = arg.slice('--max-turns='.length);
  });
  return turns;
}

const work = await mkdtemp(join(tmpdir(), 'gauntlet-gigpo-'));
const prefixes = [];
const services = stopStack();
let interrupted = false;
process.once('SIGINT', () => (interrupted = true));

/** One training run: trainer and workers on a queue prefix of their own, for `minutes`; its curve. */
async function train(grpc, task, arm) {
  const prefix = `gigpo-${process.pid}-${task.replace(/[^a-z0-9]/gi, '')}-${arm}`;
  prefixes.push(prefix);
  const outputDir = join(work, `${task}-${arm}`);
  const taskArgs = isGauntlet(task) ? ['--task', task, '--start-step', String(startStep)] : ['--task', task];
  const started = Date.now();
  const trainer = await startBin(
    'trainer',
    [
      'grpo',
      ...taskArgs,
      ...['--max-steps', '100000', '--redis', values.redis, '--prefix', prefix, '--run-name', arm],
      ...['--output-dir', outputDir, '--port', '0'],
      ...RECIPE,
      ...values['trainer-arg'],
      ...ARMS[arm],
    ],
    /policy server (http:\/\/\S+?);/,
    { onLine: (line) => line.startsWith('grpo:') && log(`${arm}: ${line}`) },
  );
  const run = stopStack();
  run.push(trainer.stop);
  try {
    for (let i = 0; i < workers; i++) {
      const worker = await startBin(
        'rollout-worker',
        [
          ...['run', '--env', grpc, '--policy', trainer.match[1], '--redis', values.redis, '--prefix', prefix],
          ...['--concurrency', String(concurrency), '--metrics-port', '0'],
        ],
        /./,
      );
      run.push(worker.stop);
    }
    const deadline = started + minutes * 60_000;
    while (Date.now() < deadline && !interrupted) await new Promise((resolve) => setTimeout(resolve, 2_000));
  } finally {
    // Workers first, then the trainer: its last metrics line is written before it exits.
    await run.stopAll();
  }
  const text = await readFile(join(outputDir, 'metrics.jsonl'), 'utf8').catch(() => '');
  const updates = text.split('\n').filter(Boolean);
  return curveOf(
    updates.map((line) => JSON.parse(line)),
    task,
    started,
  );
}

/**
 * The random policy's success rate on `task` with the arms' turn budget. The Gauntlet is trained
 * from --start-step, which eval cannot start from: null there, with the reason.
 */
async function randomBaseline(grpc, task) {
  if (isGauntlet(task)) return { success: null, why: 'eval plays the Gauntlet from step 1, not from --start-step' };
  const turns = turnsOf([...RECIPE, ...values['trainer-arg']]);
  const report = JSON.parse(
    await runBin('rollout-worker', [
      ...['eval', '--env', grpc, '--policy', 'random', '--task', task, '--episodes', String(randomEpisodes)],
      ...['--max-turns', turns, '--concurrency', String(workers * concurrency), '--json'],
    ]),
  );
  return { success: report.tasks[0].success_rate, episodes: randomEpisodes, max_turns: Number(turns) };
}

/** Success per update and over the last --window episodes, with the anchor metrics gigpo reports. */
function curveOf(updates, task, started) {
  const recent = [];
  const curve = updates.map((u) => {
    const success = u.successByTask[task] ?? Object.values(u.successByTask)[0] ?? 0;
    const episodes = u.trajectories ?? 16;
    for (let i = 0; i < episodes; i++) recent.push(i < Math.round(success * episodes) ? 1 : 0);
    recent.splice(0, Math.max(0, recent.length - windowSize));
    return {
      t_s: +((u.time - started) / 1000).toFixed(1),
      update: u.step,
      success: +success.toFixed(3),
      rolling_success: +(recent.reduce((a, b) => a + b, 0) / recent.length).toFixed(3),
      mean_turns: u.metrics['episodes/mean_turns'] ?? null,
      anchored_turns: u.metrics['gigpo/anchored_turns'] ?? null,
      anchor_groups: u.metrics['gigpo/anchor_groups'] ?? null,
    };
  });
  return {
    updates: curve.length,
    first_success: curve[0]?.success ?? null,
    final_rolling_success: curve.at(-1)?.rolling_success ?? null,
    curve,
  };
}

try {
  const env = await startEnvServer(workers * concurrency + 2);
  services.push(env.stop);
  const grpc = env.grpc;
  const tasks = {};
  for (const task of values.task) {
    tasks[task] = { random: await randomBaseline(grpc, task) };
    log(`${task}: random policy ${JSON.stringify(tasks[task].random)}`);
    for (const arm of Object.keys(ARMS)) {
      if (interrupted) break;
      log(`${task}: ${arm} for ${minutes} min`);
      tasks[task][arm] = await train(grpc, task, arm);
      const r = tasks[task][arm];
      log(`${task}: ${arm} ran ${r.updates} updates, last rolling success ${r.final_rolling_success}`);
    }
  }
  await services.stopAll();
  console.log(
    JSON.stringify({
      bench: 'gigpo',
      baseline: 'grpo (same seed, recipe and budget, same run); random: the random policy, same turn budget',
      model: 'built-in tiny',
      recipe: [...RECIPE, ...values['trainer-arg']].join(' '),
      gigpo: { step_weight: stepWeight, gamma },
      start_step: values.task.some(isGauntlet) ? startStep : null,
      budget_s_per_run: minutes * 60,
      workers,
      concurrency,
      tasks,
    }),
  );
} finally {
  await services.stopAll();
  await rm(work, { recursive: true, force: true });
  for (const prefix of prefixes) await dropQueues(values.redis, prefix);
}
