#!/usr/bin/env node
// Capacity benchmark: 1 worker against N workers on one env server with fewer sessions than the N
// workers play at once (as `docker compose up --scale rollout-worker=4` against one env of 8).
// Real processes from their bins — one `gauntlet-env serve --max-sessions S` (real Chromium), worker
// processes (`gauntlet-worker run --policy random`, so no model limits the figure) — on a real Redis,
// click-test groups of 8, on fresh bench-<uuid> prefixes removed afterwards. Baseline: 1 worker, same
// run, same env. Each row: trajectories/s from the first submit until every group is in the trainer's
// queue, and the capacity figures summed over the workers' /metrics (waits, hand-backs; failovers,
// retries and drops must be 0). Prints one JSON document on stdout, progress on stderr. Build first.
// Usage: node bench/capacity.mjs [--sessions S] [--workers N] [--concurrency C] [--groups G] [--redis URL]
import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { GroupJob } from '../proto/dist/rollout/index.js';
import { GroupSubmitter, GroupTracker, queueConnection } from '../rollout-worker/dist/index.js';
import { startEnvServer } from './support/env-server.mjs';
import { startBin } from './support/processes.mjs';
import { dropQueues } from './support/queues.mjs';

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '8' },
    workers: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '4' },
    groups: { type: 'string', default: '8' },
    redis: { type: 'string', default: 'redis://127.0.0.1:6379' },
  },
});
const SESSIONS = Number(values.sessions);
const CONCURRENCY = Number(values.concurrency);
const GROUPS = Number(values.groups);
const SIZE = 8;
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
const round = (x, digits = 3) => +x.toFixed(digits);

const FIGURES = {
  env_waits: ['gauntlet_worker_env_waits_total'],
  handed_back_capacity: ['gauntlet_worker_episodes_handed_back_total', 'reason="capacity"'],
  capacity_failovers: ['gauntlet_worker_env_failovers_total', 'reason="capacity"'],
  retries: ['gauntlet_worker_episode_retries_total'],
  groups_dropped: ['gauntlet_worker_groups_dropped_total'],
};

/** One figure of a worker's /metrics, summed over its samples that carry `label`. */
async function figure(url, name, label = '') {
  const text = await (await fetch(url)).text();
  let sum = 0;
  for (const [, labels = '', value] of text.matchAll(new RegExp(`^${name}(\\{.*\\})? (\\S+)$`, 'gm')))
    if (labels.includes(label)) sum += Number(value);
  return sum;
}

/** `workers` worker processes on a fresh prefix; `GROUPS` groups submitted at once, timed until all are done. */
async function run(workers, grpc) {
  const connection = queueConnection(values.redis, `bench-${randomUUID()}`);
  const args = ['run', '--redis', values.redis, '--prefix', connection.prefix, '--env', grpc];
  const procs = await Promise.all(
    Array.from({ length: workers }, () =>
      startBin(
        'rollout-worker',
        [...args, '--policy', 'random', '--concurrency', String(CONCURRENCY), '--metrics-port', '0'],
        /^worker ready.*; metrics (http:\/\/\S+)$/m,
      ),
    ),
  );
  const submitter = new GroupSubmitter(connection);
  const tracker = new GroupTracker(connection);
  await tracker.ready();
  try {
    const ids = Array.from({ length: GROUPS }, (_, i) => `g-${i}`);
    const left = new Set(ids);
    const done = new Promise((resolve, reject) => {
      tracker.onFinished((id, fate) => {
        if (fate === 'dropped') reject(new Error(`group ${id} was dropped`));
        if (left.delete(id) && left.size === 0) resolve();
      });
    });
    const t = performance.now();
    for (const [i, id] of ids.entries())
      await submitter.submit(
        GroupJob.parse({
          group_id: id,
          task: 'click-test',
          seed: i,
          size: SIZE,
          policy: { model: 'random', adapter: null, version: null },
          settings: { max_turns: 3, sampling: { seed: i } },
          submitted_at: new Date().toISOString(),
        }),
      );
    await tracker.replay(ids);
    await done;
    const seconds = (performance.now() - t) / 1000;
    const capacity = {};
    for (const [key, [name, label]] of Object.entries(FIGURES))
      capacity[key] = (await Promise.all(procs.map((p) => figure(p.match[1], name, label)))).reduce((a, b) => a + b, 0);
    log(`${workers} worker(s) × ${CONCURRENCY}: ${GROUPS * SIZE} episodes in ${seconds.toFixed(1)} s`);
    return {
      workers,
      concurrency_per_worker: CONCURRENCY,
      episodes_at_once_asked: workers * CONCURRENCY,
      env_sessions: SESSIONS,
      episodes: GROUPS * SIZE,
      seconds: round(seconds, 2),
      trajectories_per_s: round((GROUPS * SIZE) / seconds),
      capacity,
    };
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await tracker.close();
    await submitter.close();
    await dropQueues(values.redis, connection.prefix);
  }
}

log(`env server of ${SESSIONS} sessions; 1 then ${values.workers} workers × ${CONCURRENCY} episodes at once …`);
const env = await startEnvServer(['--max-sessions', String(SESSIONS)]);
try {
  const baseline = await run(1, env.grpc);
  const scaled = await run(Number(values.workers), env.grpc);
  const result = {
    bench: 'capacity',
    machine: { cpus: cpus().length, load_1m: round(loadavg()[0], 2) },
    task: 'click-test',
    policy: 'random',
    group_size: SIZE,
    baseline: { ...baseline, note: 'one worker, the same env server, same run' },
    scaled,
    speedup: round(scaled.trajectories_per_s / baseline.trajectories_per_s, 2),
    note: 'capacity_failovers, retries and groups_dropped must be 0: a full env costs time (env_waits), never a try',
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} finally {
  await env.stop();
}
