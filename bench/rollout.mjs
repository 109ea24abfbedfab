#!/usr/bin/env node
// rollout-worker benchmark. Queue half: what BullMQ adds per episode and per group of 8 when the env
// and the policy cost nothing (in-memory stand-ins), against a same-run baseline that calls the
// episode function (playEpisode, the worker's own) directly. End-to-end half (rollout-e2e.mjs, under
// `end_to_end`): trajectories/s and env steps/s on click-test with the real env server and the tiny
// model for 1, 2 and 4 worker processes, where an episode's time goes, and prefill per turn with and
// without the prefix cache. `--policy random` (rollout-random.mjs) runs that half with random-policy
// workers and no model, against the same env server driven directly with the SDK: what the tier
// itself costs. The default stays `tiny` (the policy-bound case).
// Real Redis at --redis, on fresh bench-<uuid> prefixes removed afterwards. Prints one JSON
// document on stdout, progress on stderr. Run `npm run build` first.
// Usage: node bench/rollout.mjs [--policy tiny|random] [--groups N] [--latency-groups N] [--redis URL] [--quick] [--queue-only]
import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { scriptedPolicy } from '../proto/dist/agent/index.js';
import { GroupJob, QUEUES } from '../proto/dist/rollout/index.js';
import { EnvPool, GroupSubmitter, RolloutWorker, playEpisode, queueConnection } from '../rollout-worker/dist/index.js';
import { Queue } from 'bullmq';
import { endToEnd } from './rollout-e2e.mjs';
import { randomEndToEnd } from './rollout-random.mjs';

const { values } = parseArgs({
  options: {
    groups: { type: 'string', default: '100' },
    'latency-groups': { type: 'string', default: '40' },
    redis: { type: 'string', default: 'redis://127.0.0.1:6379' },
    quick: { type: 'boolean', default: false },
    'queue-only': { type: 'boolean', default: false },
    policy: { type: 'string', default: 'tiny' },
  },
});
const HALVES = { tiny: endToEnd, random: randomEndToEnd };
const END_TO_END = Object.hasOwn(HALVES, values.policy) ? HALVES[values.policy] : undefined;
if (!END_TO_END) {
  process.stderr.write(`--policy must be tiny or random (got ${JSON.stringify(values.policy)})\n`);
  process.exit(2);
}
const GROUPS = values.quick ? 20 : Number(values.groups);
const LATENCY_GROUPS = values.quick ? 10 : Number(values['latency-groups']);
const SIZE = 8;
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
const pct = (xs, p) =>
  +[...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))].toFixed(3);

// Zero-cost stand-ins: an env whose episode is one step long, and a policy that answers at once.
const RESULT = (done) => ({
  observation: {
    text: '',
    url: 'about:blank',
    goal: 'Click the button.',
    axtree_txt: "[5] button 'Click Me!'",
    pruned_html: '',
    error: '',
    last_action_error: false,
    screenshot: null,
    done,
    reward: done ? 1 : 0,
    metadata: { browsergym_obs: { last_action_error: '' }, browsergym_info: { raw_reward: done ? 1 : 0 } },
  },
  reward: done ? 1 : 0,
  done,
  metadata: { browsergym_obs: { last_action_error: '' }, browsergym_info: { raw_reward: done ? 1 : 0 } },
});
const standInEnv = () => ({
  transport: 'http',
  target: 'memory',
  sessionId: 'memory',
  open: async () => undefined,
  reset: async () => RESULT(false),
  step: async () => RESULT(true),
  state: async () => ({}),
  close: async () => undefined,
});
const players = {
  envs: new EnvPool(['http://stand-in.invalid'], { probe: async () => true, connect: standInEnv, maxIdle: SIZE }),
  policies: { forEpisode: () => ({ server: 'memory', policy: scriptedPolicy('zero-cost', () => () => "click('5')") }) },
};
await players.envs.start();

const group = (id) =>
  GroupJob.parse({
    group_id: id,
    task: 'click-test',
    seed: 1,
    size: SIZE,
    policy: { model: 'zero-cost', adapter: null, version: null },
    settings: { max_turns: 2 },
    submitted_at: new Date().toISOString(),
  });

// Baseline: the same episodes, the same episode function, no queue.
async function baseline(episodes) {
  const spec = {
    task: 'click-test',
    seed: 1,
    episode_id: 'base.0',
    group_id: 'base',
    policy: { model: 'zero-cost', adapter: null, version: null },
    settings: group('base').settings,
  };
  for (let i = 0; i < 200; i++) await playEpisode(spec, players); // warm-up
  const t = performance.now();
  for (let i = 0; i < episodes; i++) await playEpisode(spec, players);
  return (performance.now() - t) / episodes;
}

const connection = queueConnection(values.redis, `bench-${randomUUID()}`);
let onGroup = () => undefined;
const worker = new RolloutWorker({
  connection,
  players,
  concurrency: SIZE,
  events: { groupCompleted: (s) => onGroup(s) },
});
const submitter = new GroupSubmitter(connection);
await worker.waitUntilReady();

/** Submits `ids` (all at once) and resolves when every one is in the trainer's queue. */
function run(ids) {
  return new Promise((resolve, reject) => {
    const left = new Set(ids);
    onGroup = (s) => left.delete(s.group_id) && left.size === 0 && resolve();
    Promise.all(ids.map((id) => submitter.submit(group(id)))).catch(reject);
  });
}

let result;
try {
  const directMs = await baseline(GROUPS * SIZE);
  log(`baseline: ${directMs.toFixed(3)} ms per episode called directly`);
  await run(Array.from({ length: 5 }, (_, i) => `warm-${i}`));
  // Throughput: many groups in flight, the worker at concurrency 8.
  const t = performance.now();
  await run(Array.from({ length: GROUPS }, (_, i) => `tp-${i}`));
  const queuedMs = (performance.now() - t) / (GROUPS * SIZE);
  log(`queued: ${queuedMs.toFixed(3)} ms per episode over ${GROUPS} groups of ${SIZE}`);
  // Latency: one group at a time, submit → TrajectoryGroup in the trainer's queue.
  const latencies = [];
  for (let i = 0; i < LATENCY_GROUPS; i++) {
    const start = performance.now();
    await run([`lat-${i}`]);
    latencies.push(performance.now() - start);
  }
  const directGroupMs = directMs * SIZE;
  result = {
    bench: 'rollout',
    redis: values.redis,
    group_size: SIZE,
    // Figures on a shared 2-core machine swing with its load: read them next to it.
    machine: { cpus: cpus().length, load_average_1m: +loadavg()[0].toFixed(2) },
    baseline: {
      direct_episode_ms: +directMs.toFixed(4),
      direct_group_of_8_ms: +directGroupMs.toFixed(3),
      note: 'playEpisode called in-process with zero-cost env and policy stand-ins',
    },
    per_episode: {
      queued_ms: +queuedMs.toFixed(4),
      overhead_ms: +(queuedMs - directMs).toFixed(4),
      target_ms: 5,
      groups: GROUPS,
      concurrency: SIZE,
    },
    per_group_of_8: {
      p50_ms: pct(latencies, 50),
      p90_ms: pct(latencies, 90),
      overhead_p50_ms: +(pct(latencies, 50) - directGroupMs).toFixed(3),
      target_ms: 20,
      groups: LATENCY_GROUPS,
    },
  };
  result.meets_targets = result.per_episode.overhead_ms <= 5 && result.per_group_of_8.overhead_p50_ms <= 20;
} finally {
  await worker.close();
  await submitter.close();
  await players.envs.close();
  for (const name of Object.values(QUEUES)) {
    const queue = new Queue(name, { connection: connection.redis, prefix: connection.prefix });
    await queue.obliterate({ force: true });
    await queue.close();
  }
}
if (!values['queue-only']) {
  result.end_to_end = await END_TO_END({ redis: values.redis, quick: values.quick, log });
  result.machine.load_average_1m_after = +loadavg()[0].toFixed(2);
}
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
