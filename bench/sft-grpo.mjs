// The from-scratch recipe on the built-in MiniWoB-style tasks, every stage a real process:
// `gauntlet-env collect` records the oracles' episodes (pruned observations), `gauntlet-trainer
// init-tiny --vocab-from` sizes a model and learns its tokenizer from that data, `sft --train full`
// trains every weight on it, and `grpo` goes on from the SFT model (a LoRA adapter with a KL to
// it, or --grpo-train full) with its in-process policy server, an env server, Redis and
// rollout-worker processes. Eval and GRPO decode under the action grammar: element arguments among
// the page's bids, typed and picked values among the goal's quoted ones (--typing). `gauntlet-worker
// eval` measures closed-loop success per task on held-out seeds (greedy) for the random policy,
// the untrained model, SFT and SFT+GRPO, and the oracle plays the same seeds: one table.
//
//   node bench/sft-grpo.mjs [--tasks a,b] [--sft-seeds 0-149] [--minutes 15] [--help]
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startBin } from './support/processes.mjs';
import { recipeSettings, stageTimer, trainRecipe } from './support/recipe-stages.mjs';
import { builtinTasks, evaluateModels, oracleSuccess, runGrpo } from './support/sft-grpo-stages.mjs';
import { dropQueues } from './support/queues.mjs';

const OPTIONS = {
  tasks: { default: '', help: 'Comma list of built-in task names (default: every built-in MiniWoB task)' },
  'observation-format': { default: 'pruned', help: 'How every stage renders pages: pruned or axtree' },
  hidden: { default: '128', help: 'Model width (init-tiny --hidden-size)' },
  layers: { default: '3', help: 'Decoder layers (init-tiny --layers)' },
  heads: { default: '4', help: 'Attention heads (init-tiny --heads)' },
  'vocab-size': { default: '2048', help: 'Tokens of the BPE tokenizer learned from the collected data' },
  'model-seed': { default: '0', help: 'Seed of the random weights' },
  'sft-seeds': { default: '0-149', help: 'Seeds whose oracle episodes are the SFT data' },
  'sft-epochs': { default: '3', help: 'Passes over the SFT data' },
  'sft-batch': { default: '8', help: 'SFT sequences per step' },
  'sft-lr': { default: '2e-3', help: 'SFT peak learning rate (warmup 10 steps, then cosine)' },
  'prompt-loss-weight': {
    default: '0.1',
    help: 'SFT loss weight of the prompt tokens (a model from scratch learns the page syntax from them)',
  },
  'max-length': { default: '640', help: 'Tokens kept per SFT example (oldest exchanges dropped first)' },
  minutes: { default: '15', help: 'Wall-clock budget of the GRPO run' },
  'grpo-steps': { default: '1000', help: 'GRPO updates at most (the run also stops at --minutes)' },
  'grpo-lr': { default: '2e-4', help: 'GRPO learning rate' },
  'grpo-train': {
    default: 'lora',
    help: 'What GRPO trains: full (every weight) or lora (an adapter on the SFT model, which stays the reference)',
  },
  'grpo-beta': { default: '0.04', help: 'GRPO --beta: weight of the k3 KL to the SFT model (with --grpo-train lora)' },
  'grpo-rank': { default: '16', help: 'LoRA rank with --grpo-train lora' },
  episodes: { default: '20', help: 'Eval episodes per task and policy' },
  'eval-first-seed': { default: '1000', help: 'First eval seed (held out from --sft-seeds)' },
  'max-turns': { default: '8', help: 'Turns per episode (eval and GRPO)' },
  'max-tokens': { default: '24', help: 'Tokens per reply (eval and GRPO)' },
  typing: {
    default: 'choices',
    help: "What fill may type (eval and GRPO): choices (one of the goal's quoted values: --text-choices) or free",
  },
  workers: { default: '1', help: 'Rollout-worker processes during GRPO' },
  concurrency: { default: '4', help: 'Episodes each worker (and eval, and collect) plays at once' },
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
    'Usage: node bench/sft-grpo.mjs [options]\n\nThe from-scratch recipe (collect → init-tiny → full SFT → GRPO) on the built-in\nMiniWoB tasks; prints closed-loop success per task and policy as JSON.\n',
  );
  for (const [name, o] of Object.entries(OPTIONS))
    console.log(`  --${name.padEnd(20)} ${o.help}${o.type === 'boolean' ? '' : ` (default: ${o.default || 'all'})`}`);
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
  heads: 1,
  'vocab-size': 260,
  'sft-epochs': 0.01,
  'sft-batch': 1,
  'max-length': 64,
  minutes: 0,
  'grpo-steps': 1,
  episodes: 1,
  'max-turns': 1,
  'max-tokens': 4,
  workers: 1,
  concurrency: 1,
  threads: 1,
  'grpo-beta': 0,
  'grpo-rank': 1,
}))
  number(name, min);
if (!['full', 'lora'].includes(values['grpo-train'])) usage('--grpo-train must be full or lora');
if (!['choices', 'free'].includes(values.typing)) usage('--typing must be choices or free');
if (!['pruned', 'axtree'].includes(values['observation-format']))
  usage('--observation-format must be pruned or axtree');
if (!/^\d+-\d+$/.test(values['sft-seeds'])) usage('--sft-seeds must be a range like 0-149');
const [sftFrom, sftTo] = values['sft-seeds'].split('-').map(Number);
const evalFirst = number('eval-first-seed', 0);
const evalLast = evalFirst + number('episodes', 1) - 1;
if (evalFirst <= sftTo && evalLast >= sftFrom) usage('--eval-first-seed: the eval seeds must not overlap --sft-seeds');

const builtin = await builtinTasks();
const names = values.tasks ? values.tasks.split(',').map((t) => t.trim().replace(/^miniwob\./, '')) : builtin;
const unknown = names.filter((n) => !builtin.includes(n));
if (unknown.length) usage(`--tasks: not built-in: ${unknown.join(', ')} (built-in: ${builtin.join(', ')})`);
const tasks = names.map((n) => `miniwob.${n}`);
const format = ['--observation-format', values['observation-format']];

const timer = stageTimer('sft-grpo');
const { log, relay, timed, timings } = timer;
// Eval and GRPO play the same way: the action grammar with element arguments among the page's
// bids and (by default) typed values among the goal's quoted ones, one action per reply, pages in the recipe's format. GRPO samples at temperature 1; eval is
// greedy (what the policy has learnt, without sampling noise).
const PLAY = [
  '--max-turns',
  values['max-turns'],
  '--max-tokens',
  values['max-tokens'],
  '--constrained',
  '--bid-choices',
  ...(values.typing === 'choices' ? ['--text-choices'] : []),
  ...format,
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

try {
  const collectArgs = ['--concurrency', values.concurrency, ...format];
  const {
    records,
    model,
    sftDir,
    steps: sftStepCount,
  } = await trainRecipe({
    work,
    tasks,
    seeds: values['sft-seeds'],
    collectArgs,
    ...recipeSettings(values, number, { seed: values['model-seed'] }),
    timer,
  });

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
    ],
    /gRPC: (grpc:\/\/[^,\s)]+)/,
  );
  stops.push(env.stop);
  const grpc = env.match[1];
  const evalArgs = [
    '--episodes',
    values.episodes,
    '--first-seed',
    String(evalFirst),
    '--concurrency',
    values.concurrency,
  ];
  const stage = { grpc, tasks, threads: values.threads, evalArgs: [...evalArgs, '--temperature', '0', ...PLAY], log };

  const success = await timed('eval_random_untrained_sft', () =>
    evaluateModels({
      ...stage,
      models: [
        ['random', null],
        ['untrained', model],
        ['sft', sftDir],
      ],
    }),
  );
  success.oracle = await timed('eval_oracle', () =>
    oracleSuccess({
      tasks,
      seeds: `${evalFirst}-${evalLast}`,
      out: join(work, 'oracle'),
      args: ['--task', tasks.join(','), ...collectArgs],
    }),
  );

  // Full: each version a model folder the workers' server loads; lora: adapters on the SFT model,
  // which --beta's KL then measures against.
  const grpoTrain =
    values['grpo-train'] === 'lora'
      ? ['--train', 'lora', '--rank', values['grpo-rank']]
      : ['--train', 'full', '--publish-dir', join(work, 'versions')];
  const grpo = await timed('grpo', () =>
    runGrpo({
      grpc,
      fallback: sftDir,
      outputDir: join(work, 'grpo'),
      trainerArgs: [
        ...['--model', sftDir, ...grpoTrain, '--beta', values['grpo-beta']],
        ...tasks.flatMap((t) => ['--task', t]),
        ...['--max-steps', values['grpo-steps'], '--redis', values.redis, '--prefix', prefix, '--run-name', 'sftgrpo'],
        ...['--lr', values['grpo-lr'], '--threads', values.threads, '--temperature', '1'],
        ...['--group-size', '8', '--groups-per-update', '2', '--max-staleness', '1', '--checkpoint-every', '5'],
        ...['--drain-ms', '5000', ...PLAY],
      ],
      workers: number('workers', 1),
      workerArgs: ['--redis', values.redis, '--prefix', prefix, '--concurrency', values.concurrency],
      minutes: number('minutes', 0),
      onLine: relay('grpo'),
      onProcess: (stop) => stops.push(stop),
    }),
  );
  const grpoRow = ['grpo', grpo.model, grpo.adapter ? { adapter: grpo.adapter } : {}];
  log(
    `grpo: ${grpo.updates} updates; evaluating ${grpo.model}${grpo.adapter ? ` with the adapter ${grpo.adapter}` : ''}`,
  );
  Object.assign(success, await timed('eval_grpo', () => evaluateModels({ ...stage, models: [grpoRow] })));

  const rows = tasks.map((task) => ({
    task,
    random: success.random?.[task] ?? null,
    untrained: success.untrained?.[task] ?? null,
    sft: success.sft?.[task] ?? null,
    sft_grpo: success.grpo?.[task] ?? null,
    oracle: success.oracle?.[task] ?? null,
  }));
  const mean = (key, of = rows) => +(of.reduce((s, r) => s + (r[key] ?? 0), 0) / Math.max(1, of.length)).toFixed(3);
  const belowSft = rows.filter((r) => (r.sft ?? 0) < 0.9);
  const result = {
    bench: 'sft-grpo',
    recipe: {
      observation_format: values['observation-format'],
      typing: values.typing,
      model: {
        hidden: number('hidden', 8),
        layers: number('layers', 1),
        heads: number('heads', 1),
        vocab: number('vocab-size', 260),
        seed: Number(values['model-seed']),
      },
      sft: {
        train: 'full',
        records,
        seeds: values['sft-seeds'],
        steps: sftStepCount,
        batch: number('sft-batch', 1),
        lr: values['sft-lr'],
        max_length: number('max-length', 64),
      },
      grpo: {
        train: values['grpo-train'],
        beta: Number(values['grpo-beta']),
        ...(values['grpo-train'] === 'lora' ? { rank: Number(values['grpo-rank']) } : {}),
        updates: grpo.updates,
        minutes: number('minutes', 0),
        lr: values['grpo-lr'],
        workers: number('workers', 1),
      },
    },
    eval: {
      episodes_per_task: number('episodes', 1),
      seeds: `${evalFirst}-${evalLast}`,
      sampling: `greedy ${PLAY.join(' ')}`,
    },
    mean_success: Object.fromEntries(['random', 'untrained', 'sft', 'sft_grpo', 'oracle'].map((k) => [k, mean(k)])),
    tasks_at_80: {
      sft: rows.filter((r) => (r.sft ?? 0) >= 0.8).length,
      sft_grpo: rows.filter((r) => (r.sft_grpo ?? 0) >= 0.8).length,
    },
    grpo_gain_where_sft_below_90: {
      tasks: belowSft.length,
      sft: mean('sft', belowSft),
      sft_grpo: mean('sft_grpo', belowSft),
    },
    tasks: rows,
    timings: {
      ...timings,
      recipe_s: +(
        (timings.collect_s ?? 0) +
        (timings.init_s ?? 0) +
        (timings.sft_s ?? 0) +
        (timings.grpo_s ?? 0)
      ).toFixed(1),
    },
    load_average: loadavg().map((l) => +l.toFixed(2)),
  };
  await mkdir(values.out, { recursive: true });
  await writeFile(join(values.out, 'sft-grpo.json'), `${JSON.stringify(result, null, 2)}\n`);
  for (const r of rows)
    log(
      `${r.task.padEnd(28)} random ${r.random}  untrained ${r.untrained}  sft ${r.sft}  sft+grpo ${r.sft_grpo}  oracle ${r.oracle}`,
    );
  console.log(JSON.stringify(result));
} finally {
  await stopAll();
  await rm(work, { recursive: true, force: true });
  await dropQueues(values.redis, prefix);
}
