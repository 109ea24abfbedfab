// rollout-worker benchmark, end-to-end half (imported by bench/rollout.mjs): real services started
// as processes from their bins — one env server (`gauntlet-env serve`, real Chromium), the tiny
// model (`gauntlet-trainer serve`) with and without its prefix cache, and 1, 2 and 4 worker
// processes (`gauntlet-worker run`) — on `click-test`. Measures:
//  - trajectories/s and env steps/s, submit → every group in the trainer's queue, per worker count,
//    against a same-run baseline that plays episodes in this process as many at once as one worker
//    does (playEpisode, the worker's own episode function: no queue, no worker process);
//  - where a worker row's episodes spent their time (`time_per_episode`): env step, policy (and of
//    it the server's prefill and decode steps, from its /metrics), reset, and queue and worker;
//  - prefill per turn with and without the prefix cache: the same seeded episodes played on each
//    server, one at a time; around every turn's request the server's /metrics are read, so a turn's
//    figures are the server's own counters (prefilled and cached prompt tokens, time to first token).
import { randomUUID } from 'node:crypto';
import { LlmPolicy } from '../proto/dist/agent/index.js';
import { PolicyClient } from '../proto/dist/policy-server/index.js';
import { EpisodeSettings, GroupJob, QUEUES, SEED_STRIDE } from '../proto/dist/rollout/index.js';
import {
  EnvPool,
  GroupSubmitter,
  GroupTracker,
  PolicyPool,
  playEpisode,
  queueConnection,
} from '../rollout-worker/dist/index.js';
import { Queue } from 'bullmq';
import { startEnvServer } from './support/env-server.mjs';
import { episodeTimeSplit, meanWallMs } from './support/episode-time.mjs';
import { startBin as start } from './support/processes.mjs';
import { playGroups } from './support/queues.mjs';

const SIZE = 8;
const POLICY = { model: 'tiny', adapter: null, version: 0 };
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};
const round = (x, digits = 3) => (x === null ? null : +x.toFixed(digits));

async function startPolicyServer(extra) {
  const server = await start(
    'trainer',
    ['serve', '--port', '0', '--threads', '1', ...extra],
    / at (http:\/\/[\d.]+:\d+)/,
  );
  return { url: server.match[1], stop: server.stop };
}

/** The server's counters this bench reads around a turn. */
async function serverCounters(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (name) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    prefilled: value('gauntlet:prompt_tokens_total'),
    cached: value('gauntlet:prefix_cache_hit_tokens_total'),
    ttftSeconds: value('gauntlet:time_to_first_token_seconds_sum'),
    prefillSeconds: value('gauntlet:prefill_seconds_total'),
    decodeSeconds: value('gauntlet:decode_seconds_total'),
  };
}

/** A policy client that records, per generate call, what the server counted for it. */
class MeteredClient extends PolicyClient {
  turns = [];
  async generate(request, options) {
    const before = await serverCounters(this.baseUrl);
    const generation = await super.generate(request, options);
    const after = await serverCounters(this.baseUrl);
    this.turns.push({
      prompt_tokens: request.promptIds.length,
      prefilled_tokens: after.prefilled - before.prefilled,
      cached_tokens: after.cached - before.cached,
      ttft_ms: (after.ttftSeconds - before.ttftSeconds) * 1000,
    });
    return generation;
  }
}

const settings = (plan, seed = 11) => ({
  max_turns: plan.maxTurns,
  observation_chars: 2_000,
  sampling: { max_tokens: plan.maxTokens, temperature: 1, seed },
});
// Episodes played here are of the groups' task seed, each sampling with its own seed (as a group's siblings do).
const TASK_SEED = 1;
const spec = (plan, i) => ({
  task: 'click-test',
  seed: TASK_SEED,
  episode_id: `direct.${i}`,
  group_id: null,
  policy: POLICY,
  settings: EpisodeSettings.parse(settings(plan, 7 + i * SEED_STRIDE)),
});

/** Prefill per turn on one server: `episodes` seeded episodes, one at a time, after one unmeasured warm-up. */
async function prefillPerTurn(grpc, url, plan) {
  const client = new MeteredClient(url);
  const policies = {
    forEpisode: (policy, s) => ({
      server: url,
      policy: new LlmPolicy(client, {
        model: policy.model,
        maxTokens: s.sampling.max_tokens,
        temperature: 1,
        seed: s.sampling.seed,
      }),
    }),
  };
  const envs = new EnvPool([grpc], { maxIdle: 1 });
  await envs.start();
  try {
    await playEpisode(spec(plan, 999), { envs, policies });
    client.turns = [];
    const perEpisode = [];
    for (let i = 0; i < plan.prefillEpisodes; i++) {
      const before = client.turns.length;
      await playEpisode(spec(plan, 500 + i), { envs, policies }); // seeds no other phase played
      perEpisode.push(client.turns.slice(before));
    }
    const turns = Math.max(...perEpisode.map((e) => e.length));
    return Array.from({ length: turns }, (_, k) => {
      const at = perEpisode.map((e) => e[k]).filter(Boolean);
      const m = (key) => round(median(at.map((t) => t[key])), key === 'ttft_ms' ? 2 : 0);
      return {
        turn: k,
        episodes: at.length,
        prompt_tokens: m('prompt_tokens'),
        prefilled_tokens: m('prefilled_tokens'),
        cached_tokens: m('cached_tokens'),
        ttft_ms: m('ttft_ms'),
      };
    });
  } finally {
    await envs.close();
  }
}

/** Episodes played in this process, as many at once as one worker plays: what the queue and the worker processes are measured against. */
async function direct(grpc, url, plan) {
  const envs = new EnvPool([grpc], { maxIdle: plan.concurrency });
  await envs.start();
  const players = { envs, policies: new PolicyPool([url]) };
  try {
    await Promise.all(
      Array.from({ length: plan.concurrency }, (_, lane) => playEpisode(spec(plan, 900 + lane), players)),
    );
    let steps = 0;
    let next = 0;
    const t = performance.now();
    await Promise.all(
      Array.from({ length: plan.concurrency }, async () => {
        while (next < plan.directEpisodes) {
          const trajectory = await playEpisode(spec(plan, next++), players);
          steps += trajectory.turns.length; // after the await: `steps += await …` would read steps before it and lose the other lane's
        }
      }),
    );
    const seconds = (performance.now() - t) / 1000;
    return {
      episodes: plan.directEpisodes,
      concurrency: plan.concurrency,
      seconds: round(seconds, 2),
      trajectories_per_s: round(plan.directEpisodes / seconds),
      env_steps_per_s: round(steps / seconds),
    };
  } finally {
    await envs.close();
  }
}

/**
 * Where the tier's episodes spent their time: the trajectories' own medians (episodeTimeSplit),
 * the policy server's engine time per episode (its prefill and decode step seconds over the run,
 * shared out over the episodes: means), what policy time held beyond them (HTTP, tokenizing, waiting
 * for a batch), and a lane's time per episode outside its episodes (queue and worker).
 */
function timeSplit(trajectories, server, laneMs) {
  const n = trajectories.length;
  const mean = (f) => trajectories.reduce((sum, t) => sum + f(t), 0) / n;
  const policyMs = mean((t) => t.turns.reduce((sum, turn) => sum + turn.policy_ms, 0));
  const engine = (key) => ((server.after[key] - server.before[key]) * 1000) / n;
  return {
    ...episodeTimeSplit(trajectories),
    means: {
      wall_ms: round(meanWallMs(trajectories), 1),
      policy_ms: round(policyMs, 1),
      engine_prefill_ms: round(engine('prefillSeconds'), 1),
      engine_decode_ms: round(engine('decodeSeconds'), 1),
      policy_outside_engine_ms: round(policyMs - engine('prefillSeconds') - engine('decodeSeconds'), 1),
      queue_and_worker_ms: round(laneMs - meanWallMs(trajectories), 1),
    },
  };
}

/** `workers` worker processes on a fresh queue prefix: `groups` groups of 8 submitted at once, timed until all reach the trainer's queue. */
async function queued(workers, grpc, url, plan, redis, log) {
  const connection = queueConnection(redis, `bench-${randomUUID()}`);
  const args = [
    'run',
    '--redis',
    redis,
    '--prefix',
    connection.prefix,
    '--env',
    grpc,
    '--policy',
    url,
    '--concurrency',
    String(plan.concurrency),
    '--no-metrics',
  ];
  const procs = await Promise.all(
    Array.from({ length: workers }, () => start('rollout-worker', args, /^worker ready/m)),
  );
  const submitter = new GroupSubmitter(connection);
  const tracker = new GroupTracker(connection);
  await tracker.ready();
  // Each group samples from its own base seed (no group replays another's tokens).
  const groupJob = (id, seed) =>
    GroupJob.parse({
      group_id: id,
      task: 'click-test',
      seed: TASK_SEED,
      size: SIZE,
      policy: POLICY,
      settings: settings(plan, seed),
      submitted_at: new Date().toISOString(),
    });
  const play = (ids, baseSeed) => playGroups(submitter, tracker, ids, (id, i) => groupJob(id, baseSeed + i));
  try {
    // Warm-up: every worker starts sessions and probes the template before the clock runs.
    await play(
      Array.from({ length: workers }, (_, i) => `warm-${i}`),
      100 * workers,
    );
    const ids = Array.from({ length: plan.groups }, (_, i) => `g-${i}`);
    const before = await serverCounters(url);
    const t = performance.now();
    await play(ids, 1_000 * workers);
    const seconds = (performance.now() - t) / 1000;
    const after = await serverCounters(url);
    const trainerQueue = new Queue(QUEUES.trajectoryGroups, {
      connection: connection.redis,
      prefix: connection.prefix,
    });
    const groups = await Promise.all(ids.map((id) => trainerQueue.getJob(id)));
    await trainerQueue.close();
    const episodes = groups.reduce((n, g) => n + g.data.trajectories.length, 0);
    const steps = groups.reduce((n, g) => n + g.data.trajectories.reduce((m, t) => m + t.turns.length, 0), 0);
    log(`${workers} worker(s): ${episodes} episodes, ${steps} env steps in ${seconds.toFixed(1)} s`);
    return {
      workers,
      concurrency_per_worker: plan.concurrency,
      groups: plan.groups,
      episodes,
      env_steps: steps,
      seconds: round(seconds, 2),
      trajectories_per_s: round(episodes / seconds),
      env_steps_per_s: round(steps / seconds),
      time_per_episode: timeSplit(
        groups.flatMap((g) => g.data.trajectories),
        { before, after },
        (workers * plan.concurrency * seconds * 1000) / episodes,
      ),
    };
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await tracker.close();
    await submitter.close();
    for (const name of Object.values(QUEUES)) {
      const queue = new Queue(name, { connection: connection.redis, prefix: connection.prefix });
      await queue.obliterate({ force: true });
      await queue.close();
    }
  }
}

export async function endToEnd({ redis, quick, log }) {
  const plan = quick
    ? { maxTurns: 3, maxTokens: 16, groups: 2, concurrency: 2, directEpisodes: 8, prefillEpisodes: 3 }
    : { maxTurns: 5, maxTokens: 16, groups: 6, concurrency: 2, directEpisodes: 24, prefillEpisodes: 8 };
  const counts = [1, 2, 4];
  log('end to end: starting an env server and two policy servers (prefix cache on / off) …');
  const [env, cached, uncached] = await Promise.all([
    startEnvServer(['--max-sessions', String(Math.max(...counts) * plan.concurrency + 1), '--warm', '2']),
    startPolicyServer([]),
    startPolicyServer(['--prefix-cache-tokens', '0']),
  ]);
  try {
    const baseline = await direct(env.grpc, cached.url, plan);
    log(`baseline: ${baseline.trajectories_per_s} trajectories/s played in-process, ${plan.concurrency} at a time`);
    const workers = [];
    for (const n of counts) workers.push(await queued(n, env.grpc, cached.url, plan, redis, log));
    // Prefill last: the same seeded episodes on both servers, so their prompts are the same tokens.
    const prefill = {
      with_cache: await prefillPerTurn(env.grpc, cached.url, plan),
      without_cache: await prefillPerTurn(env.grpc, uncached.url, plan),
    };
    log('prefill per turn measured with and without the prefix cache');
    return {
      task: 'click-test',
      model: 'tiny (built-in)',
      group_size: SIZE,
      max_turns: plan.maxTurns,
      max_tokens: plan.maxTokens,
      baseline: {
        ...baseline,
        note: 'playEpisode in this process, as many at once as one worker plays, same env and policy servers: no queue, no worker process',
      },
      workers,
      time_per_episode_note:
        "per worker row, over its timed episodes: medians of the trajectories' own timings (wall_ms; policy_ms, the policy calls as the episode saw them; env_step_ms, the step calls as the client saw them; env_server_ms, the env server's own time in them; reset_and_rest_ms = wall − policy − step: reset, prompt building, bookkeeping; noop_turns_share, the turns that sent noop(), which sleeps 1 s on the env server, and fallback_turns_share, those whose reply parsed to no action), and means: engine_prefill_ms and engine_decode_ms are the policy server's step seconds over the run (gauntlet:prefill_seconds_total, gauntlet:decode_seconds_total) shared out per episode; policy_outside_engine_ms = policy − prefill − decode (HTTP, tokenizing, waiting for a batch); queue_and_worker_ms = lane time per episode (lanes × elapsed ÷ episodes) − mean wall_ms",
      prefill_per_turn: {
        ...prefill,
        note: "medians over seeded episodes played one at a time; ttft_ms is the server's time to first token (prefill + first sample); turn 0 reuses the system prompt and the first page other episodes left in the cache",
      },
    };
  } finally {
    await Promise.all([env.stop(), cached.stop(), uncached.stop()]);
  }
}
