// rollout-worker benchmark, end-to-end half with the random policy (`bench/rollout.mjs --policy
// random`): what the rollout tier costs when no model is in the way. One real env server
// (`gauntlet-env serve`, real Chromium) on click-test; for 1, 2 and 4 worker processes
// (`gauntlet-worker run --policy random`) it measures, against a same-run baseline that drives the
// SAME env server directly with the SDK (createEnvClient + runEpisode, the worker's randomPolicy,
// one held session per lane, as many lanes as the workers play episodes at once):
//  - episodes/s: groups submitted at once, until every group is in the trainer's queue, against the
//    same episodes (same ids and seeds) played by the direct lanes;
//  - queue overhead per episode: lane time per episode (lanes × elapsed / episodes), tier minus direct;
//  - queue overhead per group p50: one group at a time, submit → group in the trainer's queue,
//    against the same 8 episodes played by the direct lanes, p50 minus p50.
// Both sides play in alternating rounds, so the shared machine's load weighs on both alike.
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { AGENT_OBSERVATION, runEpisode } from '../proto/dist/agent/index.js';
import { createEnvClient } from '../proto/dist/client/index.js';
import { GroupJob, QUEUES, episodeJobs } from '../proto/dist/rollout/index.js';
import { GroupSubmitter, GroupTracker, queueConnection, randomPolicy } from '../rollout-worker/dist/index.js';
import { Queue } from 'bullmq';
import { startEnvServer } from './support/env-server.mjs';
import { episodeTimeSplit, meanWallMs, median, round } from './support/episode-time.mjs';
import { startBin } from './support/processes.mjs';
import { dropQueues, playGroups } from './support/queues.mjs';

const SIZE = 8;
const COUNTS = [1, 2, 4];

const groupJob = (id, plan, seed) =>
  GroupJob.parse({
    group_id: id,
    task: 'click-test',
    seed: 1,
    size: SIZE,
    policy: { model: 'random', adapter: null, version: null },
    settings: { max_turns: plan.maxTurns, sampling: { seed } },
    submitted_at: new Date().toISOString(),
  });

/** The episodes of `ids` played on `clients` (one lane each), as the worker would play them, without it. */
async function playDirect(clients, ids, plan, baseSeed) {
  const jobs = ids.flatMap((id, i) => episodeJobs(groupJob(id, plan, baseSeed + i)));
  const trajectories = [];
  let next = 0;
  const t = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      while (next < jobs.length) {
        const job = jobs[next++];
        const s = job.settings;
        trajectories.push(
          await runEpisode(client, randomPolicy(s.sampling.seed), {
            task: job.task,
            seed: job.seed,
            episodeId: job.episode_id,
            groupId: job.group_id,
            resetOptions: s.reset_options,
            observation: AGENT_OBSERVATION,
            maxTurns: s.max_turns,
            deadlineMs: s.deadline_ms,
          }),
        );
      }
    }),
  );
  return { ms: performance.now() - t, trajectories };
}

/** CPU ms (user + system) process `pid` has used, from /proc/<pid>/stat (ticks of 1/100 s); null without /proc. */
function cpuMs(pid) {
  const fields = statFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) * 10 : null; // utime, stime: fields 14 and 15 of stat(5)
}
function statFields(pid) {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  } catch {
    return null;
  }
}

/** CPU ms of `root` and every process under it (the env server and its Chromium), reaped children included. */
function treeCpuMs(root) {
  let pids;
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return NaN;
  }
  const parent = new Map(pids.map((pid) => [pid, statFields(pid)?.[1]]));
  const under = (pid) => pid === String(root) || (parent.has(pid) && pid !== '1' && under(parent.get(pid)));
  let sum = 0;
  for (const pid of pids) {
    if (!under(pid)) continue;
    const f = statFields(pid);
    // utime, stime, cutime, cstime (fields 14–17): a renderer that exited counts in its parent's cutime.
    if (f) sum += (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10;
  }
  return sum;
}
const selfCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Where a group's time went between its submit and the bench hearing it was done, from the
 * trajectories' own clocks (started_at, wall_ms) and the group's completed_at (one machine, one clock).
 */
function timeline(group, lanes, submittedAt, heardAt) {
  const starts = group.trajectories.map((t) => Date.parse(t.started_at));
  const lastEnd = Math.max(...group.trajectories.map((t, i) => starts[i] + t.wall_ms));
  const completedAt = Date.parse(group.completed_at);
  const span = lastEnd - Math.min(...starts);
  return {
    to_first_episode_ms: Math.min(...starts) - submittedAt,
    episodes_span_ms: span,
    // Of the span, a lane's time between its episodes (8 episodes share evenly over 2, 4 or 8 lanes).
    lane_idle_in_span_ms: span - group.trajectories.reduce((sum, t) => sum + t.wall_ms, 0) / lanes,
    to_trainer_queue_ms: completedAt - lastEnd,
    to_bench_ms: heardAt - completedAt,
  };
}

/** `workers` worker processes on a fresh prefix, with play(ids) → ms until all are in the trainer's queue, and their trajectories. */
async function startTier(workers, grpc, plan, redis) {
  const connection = queueConnection(redis, `bench-${randomUUID()}`);
  const args = ['run', '--redis', redis, '--prefix', connection.prefix, '--env', grpc, '--policy', 'random'];
  const procs = await Promise.all(
    Array.from({ length: workers }, () =>
      startBin(
        'rollout-worker',
        [...args, '--concurrency', String(plan.concurrency), '--no-metrics'],
        /^worker ready/m,
      ),
    ),
  );
  const submitter = new GroupSubmitter(connection);
  const tracker = new GroupTracker(connection);
  await tracker.ready();
  const trainerQueue = new Queue(QUEUES.trajectoryGroups, { connection: connection.redis, prefix: connection.prefix });
  const play = async (ids, baseSeed) => {
    const [t, submittedAt] = [performance.now(), Date.now()];
    await playGroups(submitter, tracker, ids, (id, i) => groupJob(id, plan, baseSeed + i));
    const [ms, heardAt] = [performance.now() - t, Date.now()];
    const groups = await Promise.all(ids.map(async (id) => (await trainerQueue.getJob(id)).data));
    return {
      ms,
      trajectories: groups.flatMap((g) => g.trajectories),
      timeline: timeline(groups[0], workers * plan.concurrency, submittedAt, heardAt),
    };
  };
  const stop = async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await trainerQueue.close();
    await tracker.close();
    await submitter.close();
    await dropQueues(redis, connection.prefix);
  };
  const workersCpuMs = () => procs.reduce((sum, p) => sum + (cpuMs(p.pid) ?? NaN), 0);
  return { play, stop, workersCpuMs };
}

/** One worker count: the direct lanes and the tier on the same env server, throughput then one group at a time. */
async function compare(workers, { grpc, pid: envPid }, plan, redis, log) {
  const lanes = workers * plan.concurrency;
  const clients = Array.from({ length: lanes }, () => createEnvClient(grpc));
  const tier = await startTier(workers, grpc, plan, redis);
  try {
    await Promise.all(clients.map((c) => c.open()));
    const ids = (tag, n) => Array.from({ length: n }, (_, i) => `${tag}-${i}`);
    const sides = {
      direct: {
        play: (tag, n, seed) => playDirect(clients, ids(tag, n), plan, seed),
        ms: 0,
        trajectories: [],
        groupMs: [],
        cpu: { bench: 0, workers: 0, env: 0 },
      },
      tier: {
        play: (tag, n, seed) => tier.play(ids(tag, n), seed),
        workersCpuMs: tier.workersCpuMs,
        cpu: { bench: 0, workers: 0, env: 0 },
        ms: 0,
        trajectories: [],
        groupMs: [],
        timelines: [],
      },
    };
    // Rounds, the sides taking turns (direct first in even rounds, the tier in odd ones), so that the
    // shared machine's load drifting over the run weighs on both. Each turn starts with an untimed
    // warm-up: the worker closes a session idle for 500 ms, as it was while the other side played.
    for (let r = 0; r < plan.rounds; r++) {
      for (const side of r % 2 ? [sides.tier, sides.direct] : [sides.direct, sides.tier]) {
        await side.play(`warm${r}`, workers, 50 + r);
        const cpuBefore = { bench: selfCpuMs(), workers: side.workersCpuMs?.() ?? 0, env: treeCpuMs(envPid) };
        const throughput = await side.play(`tp${r}`, plan.groups, 1_000 * (r + 1));
        side.cpu.bench += selfCpuMs() - cpuBefore.bench;
        side.cpu.workers += (side.workersCpuMs?.() ?? 0) - cpuBefore.workers;
        side.cpu.env += treeCpuMs(envPid) - cpuBefore.env;
        side.ms += throughput.ms;
        side.trajectories.push(...throughput.trajectories);
        for (let i = 0; i < plan.latencyGroups; i++) {
          const one = await side.play(`lat${r}x${i}`, 1, 100_000 * (r + 1) + i);
          side.groupMs.push(one.ms);
          if (one.timeline) side.timelines.push(one.timeline);
        }
      }
    }
    const { direct, tier: queued } = sides;
    const episodes = plan.rounds * plan.groups * SIZE;
    const tierTrajectories = queued.trajectories;
    const laneMs = (ms) => (lanes * ms) / episodes;
    const row = {
      workers,
      lanes,
      episodes,
      episodes_per_s_tier: round((episodes * 1000) / queued.ms, 2),
      episodes_per_s_direct: round((episodes * 1000) / direct.ms, 2),
      ratio: round(direct.ms / queued.ms, 3),
      per_episode: {
        lane_ms_tier: round(laneMs(queued.ms)),
        lane_ms_direct: round(laneMs(direct.ms)),
        overhead_ms: round(laneMs(queued.ms) - laneMs(direct.ms)),
        tier_lane_ms_outside_episodes: round(laneMs(queued.ms) - meanWallMs(tierTrajectories)),
        // Where the client side's CPU went: on 2 cores it is taken from Chromium and the env server.
        cpu_ms_tier_workers: round(queued.cpu.workers / episodes),
        cpu_ms_tier_bench: round(queued.cpu.bench / episodes),
        cpu_ms_direct_bench: round(direct.cpu.bench / episodes),
        cpu_ms_env_tier: round(queued.cpu.env / episodes),
        cpu_ms_env_direct: round(direct.cpu.env / episodes),
        time_split_tier: episodeTimeSplit(tierTrajectories),
        time_split_direct: episodeTimeSplit(direct.trajectories),
      },
      per_group_of_8: {
        groups: queued.groupMs.length,
        p50_ms_tier: round(median(queued.groupMs)),
        p50_ms_direct: round(median(direct.groupMs)),
        overhead_p50_ms: round(median(queued.groupMs) - median(direct.groupMs)),
        tier_timeline_p50_ms: Object.fromEntries(
          Object.keys(queued.timelines[0]).map((k) => [k, round(median(queued.timelines.map((x) => x[k])))]),
        ),
      },
    };
    row.meets_targets =
      row.ratio >= 0.8 && row.per_episode.overhead_ms <= 5 && row.per_group_of_8.overhead_p50_ms <= 20;
    log(
      `${workers} worker(s) × ${plan.concurrency}: ${row.episodes_per_s_tier} episodes/s via the tier, ` +
        `${row.episodes_per_s_direct} direct (ratio ${row.ratio}); group p50 ${row.per_group_of_8.p50_ms_tier} vs ${row.per_group_of_8.p50_ms_direct} ms`,
    );
    return row;
  } finally {
    await tier.stop();
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  }
}

export async function randomEndToEnd({ redis, quick, log }) {
  const plan = quick
    ? { maxTurns: 3, concurrency: 2, rounds: 2, groups: 2, latencyGroups: 3 }
    : { maxTurns: 3, concurrency: 2, rounds: 4, groups: 3, latencyGroups: 4 };
  log('end to end (random policy): starting an env server …');
  // Room for the direct lanes and the workers' sessions at once (the direct lanes stay open).
  const env = await startEnvServer(['--max-sessions', String(2 * Math.max(...COUNTS) * plan.concurrency + 1)]);
  try {
    const rows = [];
    for (const n of COUNTS) rows.push(await compare(n, env, plan, redis, log));
    return {
      task: 'click-test',
      policy: 'random',
      group_size: SIZE,
      max_turns: plan.maxTurns,
      concurrency_per_worker: plan.concurrency,
      rounds: plan.rounds,
      workers: rows,
      targets: { ratio_min: 0.8, overhead_per_episode_ms_max: 5, overhead_per_group_p50_ms_max: 20 },
      note:
        "direct: the same env server driven from this process with the SDK (createEnvClient over gRPC + runEpisode + the worker's randomPolicy), " +
        "one held session per lane, lanes = workers × concurrency, the same episode ids and seeds; tier: submit → every group in the trainer's queue. " +
        'ratio = tier episodes/s ÷ direct episodes/s. per_episode.overhead_ms = lane time per episode (lanes × elapsed ÷ episodes), tier minus direct; ' +
        'tier_lane_ms_outside_episodes = tier lane time per episode minus the mean wall_ms its trajectories record (pickup, lease, completion, group hand-off); ' +
        'cpu_ms_*: CPU time (user + system) per episode over the throughput runs, of the worker processes (/proc), of this process (submitter and tracker; in direct, the lanes themselves), and of the env server with its Chromium (cpu_ms_env_*). ' +
        "per_group_of_8: one group at a time, p50 of submit → group in the trainer's queue, minus the p50 of the same 8 episodes played by the direct lanes; " +
        "tier_timeline_p50_ms splits a tier group by the trajectories' clocks: submit → first episode started, first start → last end (and of it, a lane's time between its episodes: span − Σ wall_ms ÷ lanes), last end → completed_at (in the trainer's queue), completed_at → the bench heard it. " +
        "time_split: medians per episode of the trajectories' own timings (policy_ms, step_ms as the client saw it, env_ms as the server measured it, wall_ms; reset_and_rest = wall − policy − step)",
    };
  } finally {
    await env.stop();
  }
}
