// Learning from one demonstration, closed loop. The from-scratch recipe (bench/support/
// recipe-stages.mjs) trains a policy on the oracle episodes of the built-in tasks minus the
// held-out ones, with `sft --demo-conditioned` copies so it has seen a demonstration in its
// context. Then, per held-out task, the oracle plays one seed (the demonstration), and
// `gauntlet-worker eval` measures on held-out seeds (greedy): the student before, the teacher
// (the same model shown the demo in every observation, `eval --demo`), and the student after
// `gauntlet-trainer sdft` distils that demo into a LoRA adapter. The random policy plays the
// same seeds, and `gauntlet-agent compare` puts the student before and after side by side from
// its own runs. Prints one JSON table with the share of the teacher's gap the student recovered.
//
//   node bench/sdft.mjs [--held-out a,b,c] [--sft-seeds 0-99] [--help]
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchOptions, stopStack } from './support/bench-options.mjs';
import { startBin } from './support/processes.mjs';
import { collectData, recipeSettings, stageTimer, trainRecipe } from './support/recipe-stages.mjs';
import { runBin } from './support/run-bin.mjs';
import { builtinTasks, evaluateModels } from './support/sft-grpo-stages.mjs';

const OPTIONS = {
  'held-out': {
    type: 'string',
    default: 'click-tab,click-dialog,focus-text,click-link,click-button',
    help: 'Built-in tasks kept out of SFT: each gets one demonstration and an SDFT run',
  },
  'train-tasks': { type: 'string', default: 'all others', help: 'Comma list of built-in tasks for SFT' },
  hidden: { type: 'string', default: '128', help: 'Model width (init-tiny --hidden-size)' },
  layers: { type: 'string', default: '3', help: 'Decoder layers' },
  heads: { type: 'string', default: '4', help: 'Attention heads' },
  'vocab-size': { type: 'string', default: '2048', help: 'Tokens of the BPE tokenizer learnt from the data' },
  'sft-seeds': { type: 'string', default: '0-99', help: 'Seeds of the SFT oracle episodes' },
  'sft-epochs': { type: 'string', default: '2', help: 'Passes over the SFT data (demo-conditioned copies included)' },
  'sft-batch': { type: 'string', default: '8', help: 'SFT sequences per step' },
  'sft-lr': { type: 'string', default: '2e-3', help: 'SFT peak learning rate' },
  'prompt-loss-weight': { type: 'string', default: '0.1', help: 'SFT loss weight of prompt tokens' },
  'max-length': { type: 'string', default: '768', help: 'Tokens kept per SFT example (the demo lengthens them)' },
  'demo-seed': { type: 'string', default: '0', help: "Seed of each held-out task's demonstration" },
  'sdft-epochs': { type: 'string', default: '8', help: "sdft --epochs: passes over the demo's states" },
  'sdft-lr': { type: 'string', default: '1e-3', help: 'sdft --lr' },
  'ema-alpha': { type: 'string', default: '0.2', help: 'sdft --ema-alpha (few-shot: 0.1–0.3)' },
  episodes: { type: 'string', default: '40', help: 'Eval episodes per task and policy' },
  'eval-first-seed': { type: 'string', default: '1000', help: 'First eval seed (held out from SFT and the demo)' },
  'max-turns': { type: 'string', default: '8', help: 'Turns per episode' },
  'max-tokens': { type: 'string', default: '24', help: 'Tokens per reply' },
  concurrency: { type: 'string', default: '4', help: 'Episodes eval and collect play at once' },
  threads: { type: 'string', default: '2', help: 'onnxruntime threads of the trainer processes' },
  student: {
    type: 'string',
    default: '',
    help: "A student an earlier run kept (--keep): skip collect, init and SFT (its held-out tasks must be this run's)",
  },
  keep: { type: 'string', default: '', help: 'Copy the trained student here (a model folder and student.json)' },
  out: { type: 'string', default: 'bench/results', help: 'Folder for sdft.json' },
  help: { type: 'boolean', default: false, help: 'Show this help' },
};
const { values, number } = benchOptions(
  OPTIONS,
  'Usage: node bench/sdft.mjs [options]\n\nTrains a demo-conditioned policy from scratch without the held-out tasks, then per held-out\ntask shows it one oracle demonstration and distils it with sdft; prints student before,\nteacher with the demo and student after (closed-loop success) as JSON.\n',
);
const fail = (message) => {
  console.error(`${message}\nRun node bench/sdft.mjs --help for the options.`);
  process.exit(2);
};
const list = (text) =>
  text
    .split(',')
    .map((t) => t.trim().replace(/^miniwob\./, ''))
    .filter(Boolean);
const builtin = await builtinTasks();
const heldOut = list(values['held-out']);
const training =
  values['train-tasks'] === 'all others' ? builtin.filter((t) => !heldOut.includes(t)) : list(values['train-tasks']);
const unknown = [...heldOut, ...training].filter((t) => !builtin.includes(t));
if (unknown.length) fail(`not built-in: ${unknown.join(', ')} (built-in: ${builtin.join(', ')})`);
if (heldOut.length === 0) fail('--held-out names no task');
const leaked = heldOut.filter((t) => training.includes(t));
if (leaked.length) fail(`--train-tasks holds held-out task(s) ${leaked.join(', ')}`);
if (!/^\d+-\d+$/.test(values['sft-seeds'])) fail('--sft-seeds must be a range like 0-149');
const [sftFrom, sftTo] = values['sft-seeds'].split('-').map(Number);
const evalFirst = number('eval-first-seed', 0);
const evalLast = evalFirst + number('episodes', 1) - 1;
const demoSeed = number('demo-seed', 0);
if (evalFirst <= sftTo && evalLast >= sftFrom) fail('--eval-first-seed: the eval seeds must not overlap --sft-seeds');
if (demoSeed >= evalFirst && demoSeed <= evalLast) fail('--demo-seed must not be an eval seed');
for (const [name, min] of Object.entries({ 'sft-epochs': 0.01, 'sft-batch': 1, 'max-length': 64, 'sdft-epochs': 1 }))
  number(name, min);
number('ema-alpha', 0, 1);

const SHAPE = { hidden: number('hidden', 8), layers: number('layers', 1), heads: number('heads', 1) };
const timer = stageTimer('sdft');
const { log, relay, timed, timings } = timer;
const format = ['--observation-format', 'pruned'];
// Eval plays as bench/sft-grpo.mjs does: greedy, the action grammar over the page's bids.
const PLAY = [
  ...['--max-turns', values['max-turns'], '--max-tokens', values['max-tokens']],
  ...['--constrained', '--bid-choices', '--temperature', '0', ...format],
];

const work = await mkdtemp(join(tmpdir(), 'gauntlet-sdft-'));
const stops = stopStack();
process.once('SIGINT', () => void stops.stopAll().then(() => process.exit(130)));
try {
  const collectArgs = ['--concurrency', values.concurrency, ...format];
  const trained = values.student
    ? await keptStudent(values.student)
    : await trainRecipe({
        work,
        tasks: training.map((t) => `miniwob.${t}`),
        seeds: values['sft-seeds'],
        collectArgs,
        ...recipeSettings(values, number, { extra: ['--demo-conditioned'] }),
        timer,
      });
  const { records, steps } = trained;
  const student = trained.sftDir;
  if (values.keep && !values.student) await keepStudent(values.keep, trained);

  const env = await startBin(
    'env-server',
    ['serve', '--port', '0', '--grpc-port', '0', '--max-sessions', String(number('concurrency', 1) + 4)],
    /gRPC: (grpc:\/\/[^,\s)]+)/,
  );
  stops.push(env.stop);
  const evalArgs = [
    '--episodes',
    values.episodes,
    '--first-seed',
    String(evalFirst),
    '--concurrency',
    values.concurrency,
  ];
  const stage = { grpc: env.match[1], threads: values.threads, evalArgs: [...evalArgs, ...PLAY], log };

  const rows = [];
  for (const name of heldOut) {
    const task = `miniwob.${name}`;
    const t0 = Date.now();
    const { sftData: demo } = await timed(`demo_${name}`, () =>
      collectData({
        out: join(work, `demo-${name}`),
        tasks: [task],
        seeds: `${demoSeed}-${demoSeed}`,
        args: collectArgs,
      }),
    );
    const adapter = join(work, `sdft-${name}`);
    await timed(`sdft_${name}`, () =>
      runBin(
        'trainer',
        [
          'sdft',
          ...['--model', student, '--demo', demo, '--task', task, '--out', adapter],
          ...['--epochs', values['sdft-epochs'], '--lr', values['sdft-lr'], '--ema-alpha', values['ema-alpha']],
          ...['--max-new-tokens', values['max-tokens'], '--threads', values.threads],
        ],
        { onLine: relay('sdft') },
      ),
    );
    const success = await timed(`eval_${name}`, () =>
      evaluateModels({
        ...stage,
        tasks: [task],
        models: [
          ['random', null],
          ['before', student],
          ['teacher', student, { evalArgs: ['--demo', demo] }],
          ['after', student, { adapter }],
        ],
      }),
    );
    const compared = await timed(`compare_${name}`, () =>
      agentCompare({ task: name, student, adapter, grpc: stage.grpc, dir: join(work, `agent-${name}`) }),
    );
    const [random, before, teacher, after] = ['random', 'before', 'teacher', 'after'].map((k) => success[k][task]);
    const gap = teacher - before;
    rows.push({
      task,
      random,
      student_before: before,
      teacher_with_demo: teacher,
      student_after: after,
      // Undefined when the demo did not help the teacher: there is no gap to recover.
      gap_recovered: gap > 0 ? +((after - before) / gap).toFixed(3) : null,
      // The same before/after as `gauntlet-agent compare` reports it (its own runs, same seeds and grammar).
      agent_compare: compared,
      seconds: Math.round((Date.now() - t0) / 1000),
    });
    log(`${task}: random ${random}  before ${before}  teacher ${teacher}  after ${after}`);
  }
  const result = {
    bench: 'sdft',
    recipe: {
      train_tasks: (trained.train_tasks ?? training).length,
      held_out: heldOut,
      sft: {
        train: 'full',
        records,
        demo_conditioned: true,
        steps,
        seeds: trained.sft_seeds ?? values['sft-seeds'],
        ...(values.student ? { kept_student: values.student } : {}),
      },
      model: trained.shape ?? SHAPE,
      sdft: {
        demo_seed: demoSeed,
        epochs: number('sdft-epochs', 1),
        lr: values['sdft-lr'],
        ema_alpha: number('ema-alpha', 0, 1),
        distillation: 'reverse KL',
        lora_rank: 16,
      },
    },
    eval: { episodes_per_task: number('episodes', 1), seeds: `${evalFirst}-${evalLast}`, sampling: PLAY.join(' ') },
    target: 'student_after recovers ≥ 70 % of teacher_with_demo − student_before on ≥ 3 held-out tasks, ≤ 15 min each',
    tasks_meeting_target: rows.filter((r) => r.gap_recovered !== null && r.gap_recovered >= 0.7 && r.seconds <= 900)
      .length,
    tasks: rows,
    timings,
    load_average: loadavg().map((l) => +l.toFixed(2)),
  };
  await mkdir(values.out, { recursive: true });
  await writeFile(join(values.out, 'sdft.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result));
} finally {
  await stops.stopAll();
  await rm(work, { recursive: true, force: true });
}

/** What --keep wrote: the student and the figures of the run that trained it. */
async function keptStudent(dir) {
  const info = JSON.parse(
    await readFile(join(dir, 'student.json'), 'utf8').catch(() =>
      fail(`--student ${dir}: no student.json (write one with --keep)`),
    ),
  );
  const overlap = heldOut.filter((t) => info.train_tasks.includes(t));
  if (overlap.length) fail(`--student ${dir} was trained on ${overlap.join(', ')}, which this run holds out`);
  log(`student from ${dir}: ${info.records} records, ${info.steps} SFT steps`);
  return { ...info, sftDir: join(dir, 'model') };
}

async function keepStudent(dir, trained) {
  await mkdir(dir, { recursive: true });
  await cp(trained.sftDir, join(dir, 'model'), { recursive: true });
  const info = {
    train_tasks: training,
    records: trained.records,
    steps: trained.steps,
    sft_seeds: values['sft-seeds'],
    shape: SHAPE,
  };
  await writeFile(join(dir, 'student.json'), `${JSON.stringify(info, null, 2)}\n`);
  log(`kept the student in ${dir}`);
}

/**
 * Student before and after, played by `gauntlet-agent run --mode local` (base, then with the
 * sdft adapter) on the eval seeds under the same grammar, and compared by `gauntlet-agent compare
 * --json`: its success_rate {a, b, delta} for the task.
 */
async function agentCompare({ task, student, adapter, grpc, dir }) {
  const seeds = `${evalFirst}-${evalLast}`;
  const play = (out, extra) =>
    runBin('agent', [
      'run',
      ...['--mode', 'local', '--model-dir', student, ...extra, '--env', grpc, '--task', task, '--seeds', seeds],
      ...['--max-steps', values['max-turns'], '--max-tokens', values['max-tokens'], '--temperature', '0'],
      ...['--constrained', '--repetition-penalty', '1', ...format, '--out', out],
    ]);
  await play(join(dir, 'before'), []);
  await play(join(dir, 'after'), ['--adapter', adapter]);
  const report = JSON.parse(await runBin('agent', ['compare', '--json', join(dir, 'before'), join(dir, 'after')]));
  const rate = report.tasks[task]?.success_rate ?? report.all.success_rate;
  log(
    `gauntlet-agent compare ${task}: before ${rate.a}  after ${rate.b}  (${rate.delta >= 0 ? '+' : ''}${rate.delta})`,
  );
  return { before: rate.a, after: rate.b, delta: rate.delta };
}
