#!/usr/bin/env node
// Gauntlet shortcut benchmark: per challenge type, the solve rate of a naive scripted policy (it
// reads no instructions: submits every code-like string it sees, fills every field, presses every
// button, waits, submits) against the built-in expert's, on the same seeds through the in-process
// env, each within the task's own action budget. A type the naive policy solves often can be won
// without reading the page. Prints one JSON document. Run `npm run build` first.
// Usage: node bench/gauntlet-naive.mjs [--seeds N] [--types a,b] [--concurrency N]
import { parseArgs } from 'node:util';
import { runEpisode } from '@gauntlet/proto/agent';
import { EnvService, DEFAULTS } from '../env-server/dist/index.js';
import { sessionEnv } from '../env-server/dist/cli/env-pool.js';
import { CHALLENGE_TYPES } from '../env-server/dist/tasks/gauntlet/challenge-types.js';
import { naivePolicy } from '../env-server/dist/tasks/gauntlet/baseline/naive-policy.js';
import { expertPolicy } from '../env-server/dist/tasks/gauntlet/expert/rollout.js';
import { EXPERT_ACTION_SET, EXPERT_OBSERVATION } from '../env-server/dist/tasks/gauntlet/expert/env-port.js';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '50' },
    types: { type: 'string' },
    concurrency: { type: 'string', default: '3' },
  },
});
const SEEDS = Array.from({ length: Number(values.seeds) }, (_, i) => 5000 + i);
const TYPES = values.types ? values.types.split(',') : CHALLENGE_TYPES;
const WORKERS = Number(values.concurrency);
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);

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
    observation: EXPERT_OBSERVATION,
    actionSet: EXPERT_ACTION_SET,
    maxTurns: Infinity,
    deadlineMs: 10 * 60_000,
  });
  return { solved: episode.final_task_info?.solved === 1, actions: episode.turns.length };
};

const started = performance.now();
const perType = {};
const jobs = TYPES.flatMap((type) => SEEDS.map((seed) => ({ type, seed })));
let done = 0;
await Promise.all(
  ports.map(async (port) => {
    for (let job = jobs.shift(); job; job = jobs.shift()) {
      const task = `gauntlet:${job.type}`;
      const naive = await play(port, naivePolicy(), task, job.seed);
      const expert = await play(port, expertPolicy(), task, job.seed);
      const t = (perType[job.type] ??= { naive: 0, expert: 0, naive_actions: 0, expert_actions: 0, n: 0 });
      t.n += 1;
      t.naive += naive.solved ? 1 : 0;
      t.expert += expert.solved ? 1 : 0;
      t.naive_actions += naive.actions;
      t.expert_actions += expert.actions;
      if (++done % 25 === 0) log(`${done} of ${TYPES.length * SEEDS.length} seeds played`);
    }
  }),
);
await service.shutdown();

const rate = (x, n) => +(x / n).toFixed(3);
const rows = Object.fromEntries(
  TYPES.map((type) => {
    const t = perType[type];
    return [
      type,
      {
        seeds: t.n,
        naive_solve_rate: rate(t.naive, t.n),
        expert_solve_rate: rate(t.expert, t.n),
        naive_actions_mean: +(t.naive_actions / t.n).toFixed(1),
        expert_actions_mean: +(t.expert_actions / t.n).toFixed(1),
      },
    ];
  }),
);
const all = Object.values(rows);
process.stdout.write(
  JSON.stringify(
    {
      bench: 'gauntlet-naive',
      seeds_per_type: SEEDS.length,
      wall_s: +((performance.now() - started) / 1000).toFixed(1),
      targets: { naive_max: 0.1, expert_min: 1 },
      naive_worst: Math.max(...all.map((r) => r.naive_solve_rate)),
      expert_worst: Math.min(...all.map((r) => r.expert_solve_rate)),
      per_type: rows,
    },
    null,
    2,
  ) + '\n',
);
