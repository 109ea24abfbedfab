#!/usr/bin/env node
// Gauntlet shortcut benchmark: per challenge type, the solve rate of a naive scripted policy (it
// reads no instructions: submits every code-like string it sees, fills every field, presses every
// button, waits, submits) against the built-in oracle's, on the same seeds through the in-process
// env, each within the task's own action budget. A type the naive policy solves often can be won
// without reading the page. Prints one JSON document. Run `npm run build` first.
// Seeds are played in turn across the types (seed 1 of every type, then seed 2, …), so a run cut
// short still covers every type evenly. With --log each played seed is appended to a JSONL file
// as it finishes, and --summarize <file> prints the same document from such logs (several may be
// given, comma-separated) without playing anything.
// Usage: node bench/gauntlet-naive.mjs [--seeds N] [--first-seed S] [--types a,b] [--concurrency N] [--log FILE]
//        node bench/gauntlet-naive.mjs --summarize FILE[,FILE…] [--types a,b]
import { appendFileSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runEpisode } from '@gauntlet/proto/agent';
import { EnvService, DEFAULTS } from '../env-server/dist/index.js';
import { sessionEnv } from '../env-server/dist/cli/in-process-envs.js';
import { CHALLENGE_TYPES } from '../env-server/dist/tasks/gauntlet/challenges/index.js';
import { naivePolicy } from '../env-server/dist/collect/gauntlet/naive-policy.js';
import { gauntletOraclePolicy } from '../env-server/dist/collect/gauntlet/rollout.js';
import { ORACLE_ACTION_SET, ORACLE_OBSERVATION } from '../env-server/dist/collect/gauntlet/env-port.js';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '50' },
    types: { type: 'string' },
    'first-seed': { type: 'string', default: '5000' },
    concurrency: { type: 'string', default: '3' },
    log: { type: 'string' },
    summarize: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(
    'Usage: node bench/gauntlet-naive.mjs [--seeds N] [--first-seed S] [--types a,b] [--concurrency N] [--log FILE]\n' +
      '       node bench/gauntlet-naive.mjs --summarize FILE[,FILE...] [--types a,b]\n',
  );
  process.exit(0);
}
const SEEDS = Array.from({ length: Number(values.seeds) }, (_, i) => Number(values['first-seed']) + i);
const TYPES = values.types ? values.types.split(',') : CHALLENGE_TYPES;
const WORKERS = Number(values.concurrency);
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
const rate = (x, n) => +(x / n).toFixed(3);

/** The result document, from one record per played (type, seed). */
function summary(records, wallS) {
  const perType = {};
  for (const r of records) {
    const t = (perType[r.type] ??= { naive: 0, oracle: 0, naive_actions: 0, oracle_actions: 0, n: 0, seeds: [] });
    t.n += 1;
    t.seeds.push(r.seed);
    t.naive += r.naive_solved ? 1 : 0;
    t.oracle += r.oracle_solved ? 1 : 0;
    t.naive_actions += r.naive_actions;
    t.oracle_actions += r.oracle_actions;
  }
  const rows = Object.fromEntries(
    TYPES.filter((type) => perType[type]).map((type) => {
      const t = perType[type];
      return [
        type,
        {
          seeds: t.n,
          seed_range: `${Math.min(...t.seeds)}-${Math.max(...t.seeds)}`,
          naive_solved: t.naive,
          oracle_solved: t.oracle,
          naive_solve_rate: rate(t.naive, t.n),
          oracle_solve_rate: rate(t.oracle, t.n),
          naive_actions_mean: +(t.naive_actions / t.n).toFixed(1),
          oracle_actions_mean: +(t.oracle_actions / t.n).toFixed(1),
        },
      ];
    }),
  );
  const all = Object.values(rows);
  return {
    bench: 'gauntlet-naive',
    ...(wallS === undefined ? {} : { wall_s: wallS }),
    targets: { naive_max: 0.1, oracle_min: 1 },
    naive_worst: Math.max(...all.map((r) => r.naive_solve_rate)),
    oracle_worst: Math.min(...all.map((r) => r.oracle_solve_rate)),
    per_type: rows,
  };
}

if (values.summarize) {
  const records = values.summarize
    .split(',')
    .flatMap((file) => readFileSync(file, 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line));
  process.stdout.write(JSON.stringify(summary(records), null, 2) + '\n');
  process.exit(0);
}

const service = new EnvService({
  ...structuredClone(DEFAULTS),
  warmContexts: 0,
  maxSessions: WORKERS + 1,
  idleTtlMs: 0,
});
await service.start();
const ports = await Promise.all(
  Array.from({ length: WORKERS }, async () => sessionEnv(service, await service.openSession('inproc'))),
);

const play = async (port, policy, task, seed) => {
  const episode = await runEpisode(port, policy, {
    task,
    seed,
    observation: ORACLE_OBSERVATION,
    actionSet: ORACLE_ACTION_SET,
    maxTurns: Infinity,
    deadlineMs: 10 * 60_000,
  });
  return { solved: episode.final_task_info?.solved === 1, actions: episode.turns.length };
};

const started = performance.now();
const records = [];
// Seed-major: every type's first seed, then every type's second, … (a cut-short run stays even).
const jobs = SEEDS.flatMap((seed) => TYPES.map((type) => ({ type, seed })));
const total = jobs.length;
await Promise.all(
  ports.map(async (port) => {
    for (let job = jobs.shift(); job; job = jobs.shift()) {
      const task = `gauntlet:${job.type}`;
      const naive = await play(port, naivePolicy(), task, job.seed);
      const oracle = await play(port, gauntletOraclePolicy(), task, job.seed);
      const record = {
        type: job.type,
        seed: job.seed,
        naive_solved: naive.solved,
        oracle_solved: oracle.solved,
        naive_actions: naive.actions,
        oracle_actions: oracle.actions,
      };
      records.push(record);
      if (values.log) appendFileSync(values.log, JSON.stringify(record) + '\n');
      const secs = ((performance.now() - started) / 1000).toFixed(0);
      log(
        `${records.length} of ${total} played (${secs} s): ${job.type} seed ${job.seed} naive ${naive.solved ? 'solved' : 'failed'}, oracle ${oracle.solved ? 'solved' : 'failed'}`,
      );
    }
  }),
);
await service.shutdown();

process.stdout.write(
  JSON.stringify(
    { seeds_per_type: SEEDS.length, ...summary(records, +((performance.now() - started) / 1000).toFixed(1)) },
    null,
    2,
  ) + '\n',
);
