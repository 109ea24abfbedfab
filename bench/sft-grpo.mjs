// SFT → GRPO benchmark on the built-in MiniWoB-style tasks, on the real stack: a seeded model
// (`gauntlet-trainer init-tiny`, default hidden 256 × 4 layers), oracle trajectories
// (`gauntlet-env collect --task miniwob…`), `gauntlet-trainer sft` on them, then
// `gauntlet-trainer grpo` from the SFT adapter (in-process policy server, worker processes,
// Redis). Success per task is measured by `gauntlet-worker eval` on held-out seeds for the
// untrained model, after SFT and after GRPO, all at the sampling settings GRPO trains with.
//
//   node bench/sft-grpo.mjs [--tasks a,b] [--minutes 10] [--episodes 10] [--help]
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, startBin } from './support/processes.mjs';
import { runBin } from './support/run-bin.mjs';
import { evaluatePolicies, runGrpo } from './support/sft-grpo-stages.mjs';
import { dropQueues } from './support/queues.mjs';

const OPTIONS = {
  tasks: { default: '', help: 'Comma list of built-in task names (default: every built-in MiniWoB task)' },
  hidden: { default: '256', help: 'Model width (init-tiny --hidden-size)' },
  layers: { default: '4', help: 'Decoder layers (init-tiny --layers)' },
  'model-seed': { default: '0', help: 'Seed of the random weights' },
  'sft-seeds': { default: '0-19', help: 'Seeds whose oracle episodes are the SFT data' },
  'sft-epochs': { default: '10', help: 'Passes over the SFT data' },
  'sft-lr': { default: '3e-3', help: 'SFT learning rate' },
  'max-length': { default: '2048', help: 'Tokens kept per SFT example (the tokenizer is byte-level)' },
  minutes: { default: '10', help: 'Wall-clock budget of the GRPO run' },
  'grpo-steps': { default: '1000', help: 'GRPO updates at most (the run also stops at --minutes)' },
  'grpo-lr': { default: '2e-3', help: 'GRPO learning rate' },
  'eval-temperature': { default: '0', help: 'Eval sampling temperature (0: greedy; GRPO samples at 1)' },
  episodes: { default: '10', help: 'Eval episodes per task and model' },
  'eval-first-seed': { default: '1000', help: 'First eval seed (held out from --sft-seeds)' },
  'max-turns': { default: '4', help: 'Turns per episode (eval and GRPO)' },
  'max-tokens': { default: '32', help: 'Tokens per reply (eval and GRPO)' },
  workers: { default: '2', help: 'Rollout-worker processes during GRPO' },
  concurrency: { default: '2', help: 'Episodes each worker (and eval) plays at once' },
  threads: { default: '2', help: 'onnxruntime threads of the trainer processes' },
  out: { default: 'bench/results', help: 'Folder for sft-grpo.json' },
  redis: { default: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', help: 'Redis URL' },
  help: { type: 'boolean', default: false, help: 'Show this help' },
};

const { values } = parseArgs({
  options: Object.fromEntries(
    Object.entries(OPTIONS).map(([k, v]) => [k, { type: v.type ?? 'string', default: v.default }]),
  ),
});
if (values.help) {
  console.log(
    'Usage: node bench/sft-grpo.mjs [options]\n\nSFT then GRPO on the built-in MiniWoB tasks; prints success per task as JSON.\n',
  );
  for (const [name, o] of Object.entries(OPTIONS))
    console.log(`  --${name.padEnd(16)} ${o.help}${o.type === 'boolean' ? '' : ` (default: ${o.default || 'all'})`}`);
  process.exit(0);
}
const usage = (message) => {
  console.error(`${message}\nRun node bench/sft-grpo.mjs --help for the options.`);
  process.exit(2);
};
const number = (name, min) => {
  const v = Number(values[name]);
  if (!Number.isFinite(v) || v < min) usage(`--${name} must be a number ≥ ${min}; got ${JSON.stringify(values[name])}`);
  return v;
};
for (const [name, min] of Object.entries({
  hidden: 8,
  layers: 1,
  'sft-epochs': 1,
  minutes: 0.1,
  'grpo-steps': 1,
  episodes: 1,
  'max-turns': 1,
  'max-tokens': 4,
  workers: 1,
  concurrency: 1,
  threads: 1,
}))
  number(name, min);
if (!/^\d+-\d+$/.test(values['sft-seeds'])) usage('--sft-seeds must be a range like 0-19');
const [sftFrom, sftTo] = values['sft-seeds'].split('-').map(Number);
const evalFirst = number('eval-first-seed', 0);
if (evalFirst <= sftTo && evalFirst + number('episodes', 1) - 1 >= sftFrom)
  usage('--eval-first-seed: the eval seeds must not overlap --sft-seeds');

const builtin = (await readdir(join(ROOT, 'env-server/src/tasks/miniwob'), { withFileTypes: true }))
  .filter((e) => e.isDirectory() && existsSync(join(ROOT, 'env-server/src/tasks/miniwob', e.name, 'index.ts')))
  .map((e) => e.name)
  .sort();
const names = values.tasks ? values.tasks.split(',').map((t) => t.trim().replace(/^miniwob\./, '')) : builtin;
const unknown = names.filter((n) => !builtin.includes(n));
if (unknown.length) usage(`--tasks: not built-in: ${unknown.join(', ')} (built-in: ${builtin.join(', ')})`);
const tasks = names.map((n) => `miniwob.${n}`);

const log = (line) => process.stderr.write(`[sft-grpo] ${line}\n`);
const relay = (tag) => (line) => line.trim() && process.stderr.write(`[sft-grpo:${tag}] ${line}\n`);
// Eval and GRPO play the same way: the action grammar with element arguments among the page's
// bids (docs/rollout-worker.md), one action per reply. GRPO samples at temperature 1; eval at
// --eval-temperature (greedy by default: what the policy has learnt, without sampling noise).
const SAMPLING = [
  '--max-turns',
  values['max-turns'],
  '--max-tokens',
  values['max-tokens'],
  '--constrained',
  '--bid-choices',
];
const evalTemperature = String(number('eval-temperature', 0));

// GRPO's groups: 2 groups of 8 episodes per update, at most one version stale; 2 sequences per
// forward/backward pass (all 16 multi-turn episodes of ~4,000 byte tokens at once need over 20 GB
// at hidden 128); a checkpoint every 5 updates so a run stopped by --minutes leaves a recent adapter.
const GRPO_RECIPE = [
  '--micro-batch',
  '2',
  '--group-size',
  '8',
  '--groups-per-update',
  '2',
  '--max-staleness',
  '1',
  '--checkpoint-every',
  '5',
  '--drain-ms',
  '5000',
];

const work = await mkdtemp(join(tmpdir(), 'gauntlet-sft-grpo-'));
const prefix = `sftgrpo-${process.pid}-${Date.now().toString(36)}`;
const stops = [];
const stopAll = async () => {
  while (stops.length)
    await stops
      .pop()()
      .catch(() => {});
};
process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));
const timings = {};
const timed = async (name, work) => {
  const t0 = Date.now();
  log(`${name}…`);
  const result = await work();
  timings[`${name}_s`] = Math.round((Date.now() - t0) / 100) / 10;
  log(`${name} done in ${timings[`${name}_s`]} s`);
  return result;
};

try {
  const model = join(work, 'model');
  await timed('init', () =>
    runBin('trainer', [
      'init-tiny',
      model,
      '--hidden-size',
      values.hidden,
      '--layers',
      values.layers,
      '--seed',
      values['model-seed'],
    ]),
  );
  const data = join(work, 'data');
  await timed('collect', () =>
    runBin(
      'env-server',
      ['collect', '--out', data, '--task', tasks.join(','), '--seeds', values['sft-seeds'], '--concurrency', '2'],
      { onLine: relay('collect') },
    ),
  );
  const sftLines = (await readFile(join(data, 'sft.jsonl'), 'utf8')).split('\n').filter(Boolean);
  const sftDir = join(work, 'sft');
  const sftSteps = Math.ceil((sftLines.length * number('sft-epochs', 1)) / 8);
  await timed('sft', () =>
    runBin(
      'trainer',
      [
        'sft',
        '--model',
        model,
        '--data',
        join(data, 'sft.jsonl'),
        '--out',
        sftDir,
        '--steps',
        String(sftSteps),
        '--batch-size',
        '8',
        '--lr',
        values['sft-lr'],
        '--max-length',
        values['max-length'],
        '--rank',
        '16',
        '--threads',
        values.threads,
      ],
      { onLine: relay('sft') },
    ),
  );

  const env = await startBin(
    'env-server',
    [
      'serve',
      '--port',
      '0',
      '--grpc-port',
      '0',
      '--max-sessions',
      String(number('workers', 1) * number('concurrency', 1) + 4),
      '--warm',
      '2',
    ],
    /gRPC: (grpc:\/\/[^,\s)]+)/,
  );
  stops.push(env.stop);
  const grpc = env.match[1];

  const stage = { model, grpc, tasks, threads: values.threads, log };
  const evalArgs = [
    '--episodes',
    values.episodes,
    '--first-seed',
    String(evalFirst),
    '--concurrency',
    values.concurrency,
    '--temperature',
    evalTemperature,
    ...SAMPLING,
  ];
  const before = await timed('eval_base_and_sft', () =>
    evaluatePolicies({ ...stage, adapters: [['sft', sftDir]], base: true, evalArgs }),
  );

  const grpo = await timed('grpo', () =>
    runGrpo({
      grpc,
      initAdapter: sftDir,
      outputDir: join(work, 'grpo'),
      trainerArgs: [
        '--model',
        model,
        '--init-adapter',
        sftDir,
        ...tasks.flatMap((t) => ['--task', t]),
        '--max-steps',
        values['grpo-steps'],
        '--redis',
        values.redis,
        '--prefix',
        prefix,
        '--run-name',
        'sftgrpo',
        '--lr',
        values['grpo-lr'],
        '--threads',
        values.threads,
        '--temperature',
        '1',
        ...GRPO_RECIPE,
        ...SAMPLING,
      ],
      workers: number('workers', 1),
      workerArgs: ['--redis', values.redis, '--prefix', prefix, '--concurrency', values.concurrency],
      minutes: number('minutes', 0.1),
      onLine: relay('grpo'),
      onProcess: (stop) => stops.push(stop),
    }),
  );
  const after = await timed('eval_grpo', () =>
    evaluatePolicies({ ...stage, adapters: [['grpo', grpo.adapter]], evalArgs }),
  );
  const success = { ...before, ...after };

  const rows = tasks.map((task) => ({
    task,
    base: success.base?.[task] ?? null,
    sft: success.sft?.[task] ?? null,
    grpo: success.grpo?.[task] ?? null,
  }));
  const mean = (key) => +(rows.reduce((s, r) => s + (r[key] ?? 0), 0) / rows.length).toFixed(3);
  const result = {
    bench: 'sft-grpo',
    model: { hidden: number('hidden', 8), layers: number('layers', 1), seed: Number(values['model-seed']) },
    sft: { records: sftLines.length, seeds: values['sft-seeds'], steps: sftSteps, lr: values['sft-lr'] },
    grpo: { updates: grpo.updates, minutes: number('minutes', 0.1), lr: values['grpo-lr'], workers: values.workers },
    eval: {
      episodes_per_task: number('episodes', 1),
      first_seed: evalFirst,
      sampling: `${SAMPLING.join(' ')} --temperature ${evalTemperature}`,
    },
    mean_success: { base: mean('base'), sft: mean('sft'), grpo: mean('grpo') },
    tasks: rows,
    timings,
  };
  await mkdir(values.out, { recursive: true });
  await writeFile(join(values.out, 'sft-grpo.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result));
} finally {
  await stopAll();
  await rm(work, { recursive: true, force: true });
  await dropQueues(values.redis, prefix);
}
