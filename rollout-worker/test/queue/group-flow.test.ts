import { createEnvClient } from '@gauntlet/proto/client';
import { JOB_NAMES, QUEUES, episodeJobs, GroupJob } from '@gauntlet/proto/rollout';
import { Queue, QueueEvents } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Players } from '../../src/episode/play.js';
import { EnvPool } from '../../src/env/env-pool.js';
import { WorkerMetrics } from '../../src/metrics/metrics.js';
import { PolicyPool } from '../../src/policies/policy-pool.js';
import type { QueueConnection } from '@gauntlet/proto/rollout/queue';
import { GroupTracker } from '@gauntlet/proto/rollout/queue';
import { GroupSubmitter } from '@gauntlet/proto/rollout/queue';
import { RolloutWorker, type RolloutEvents } from '../../src/queue/rollout-worker.js';
import { startEnvServer, type EnvServerProcess } from '../support/env-server.js';
import { freshConnection, freePort, removeQueues } from '../support/redis.js';
import { groupEvents, groupInput, signalled, trainerGroups } from '../support/rollout.js';

// Real Redis (a fresh test-<uuid> prefix per test), real env servers as processes, BullMQ as shipped.
let envA: EnvServerProcess;
let envB: EnvServerProcess;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  [envA, envB] = await Promise.all([startEnvServer(), startEnvServer()]);
}, 150_000);
afterAll(async () => {
  await Promise.all([envA?.stop(), envB?.stop()]);
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Rig {
  connection: QueueConnection;
  worker: RolloutWorker;
  submitter: GroupSubmitter;
  metrics: WorkerMetrics;
  envs: EnvPool;
}

async function rig(
  urls: string[],
  events: Partial<RolloutEvents> = {},
  policies: Players['policies'] = new PolicyPool(['random']),
): Promise<Rig> {
  const connection = freshConnection();
  const metrics = new WorkerMetrics(false);
  const envs = new EnvPool(urls, { metrics, probeIntervalMs: 60_000 });
  await envs.start();
  const worker = new RolloutWorker({ connection, players: { envs, policies }, concurrency: 4, metrics, events });
  const submitter = new GroupSubmitter(connection, { attempts: 3, backoffMs: 100, keepSeconds: 3600 });
  cleanups.push(
    () => removeQueues(connection),
    () => envs.close(),
    () => worker.drain(0),
    () => submitter.close(),
  );
  await worker.waitUntilReady();
  return { connection, worker, submitter, metrics, envs };
}

const count = async (metrics: WorkerMetrics, name: string, labels: Record<string, string> = {}) =>
  (await metrics.registry.getSingleMetric(name)!.get()).values
    .filter((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))
    .reduce((s, v) => s + v.value, 0);

describe('a group as a BullMQ flow', () => {
  it('plays a group of 8 on click-test and hands exactly one TrajectoryGroup to the trainer queue; resubmitting adds nothing', async () => {
    const done = signalled();
    const played: string[] = [];
    const r = await rig([envA.grpc], { ...groupEvents(done), episode: (t) => played.push(t.episode_id) });
    expect(await r.submitter.submit(groupInput('g8', 8))).toBe('added');
    await done.promise;
    const [handed, ...more] = await trainerGroups(r.connection);
    expect(more).toEqual([]);
    expect(handed!.id).toBe('g8');
    const { trajectories } = handed!.group;
    expect(trajectories.map((t) => t.episode_id)).toEqual(Array.from({ length: 8 }, (_, i) => `g8.${i}`));
    for (const t of trajectories) {
      expect(t).toMatchObject({ group_id: 'g8', task: 'click-test', seed: 3 });
      expect(['success', 'fail', 'timeout']).toContain(t.outcome);
      expect(t.turns.length).toBeGreaterThan(0);
      expect(t.turns[0]!.action).toMatch(/^click\("\w+"\)$|^noop\(\)$/);
      expect(t.turns[0]!.policy).toEqual({ model: 'random', adapter: null, version: null });
    }
    expect(played.sort()).toEqual(trajectories.map((t) => t.episode_id).sort());
    // The same group again, now finished: recognised by its id, nothing replayed.
    expect(await r.submitter.submit(groupInput('g8', 8))).toBe('exists');
    expect(await count(r.metrics, 'gauntlet_worker_episodes_total')).toBe(8);
    expect(await count(r.metrics, 'gauntlet_worker_groups_completed_total')).toBe(1);
    expect(played).toHaveLength(8);
  }, 150_000);

  it('fails bad payloads at once with the field at fault, never retrying them', async () => {
    const r = await rig([envA.grpc]);
    const base = { connection: r.connection.redis, prefix: r.connection.prefix };
    const episodes = new Queue(QUEUES.episodes, base);
    const groups = new Queue(QUEUES.groups, base);
    const events = new QueueEvents(QUEUES.episodes, base);
    const groupQueueEvents = new QueueEvents(QUEUES.groups, base);
    cleanups.push(() => Promise.all([episodes.close(), groups.close(), events.close(), groupQueueEvents.close()]));
    await Promise.all([events.waitUntilReady(), groupQueueEvents.waitUntilReady()]);
    const valid = episodeJobs(GroupJob.parse(groupInput('gb', 1)))[0]!;
    const cases = [
      {
        queue: episodes,
        events,
        name: JOB_NAMES.episode,
        data: { ...valid, settings: { ...valid.settings, max_turns: 0 } },
        reason: /^bad episode job \S+: settings\.max_turns: .*>=1/i,
      },
      {
        queue: episodes,
        events,
        name: JOB_NAMES.episode,
        data: { ...valid, episode_id: 'other.0' },
        reason: /^bad episode job \S+: episode_id: episode_id must be <group_id>\.<index>/,
      },
      {
        queue: episodes,
        events,
        name: JOB_NAMES.episode,
        data: 'not an object',
        reason: /^bad episode job \S+: \(payload\): /i,
      },
      {
        queue: episodes,
        events,
        name: 'mystery',
        data: valid,
        reason: /named "mystery"; only "episode" jobs belong there/,
      },
      {
        queue: groups,
        events: groupQueueEvents,
        name: JOB_NAMES.group,
        data: { ...groupInput('gc', 2), size: 0 },
        reason: /^bad group job \S+: size: /,
      },
    ];
    for (const c of cases) {
      const job = await c.queue.add(c.name, c.data, { attempts: 5, backoff: { type: 'fixed', delay: 10 } });
      await expect(job.waitUntilFinished(c.events, 30_000)).rejects.toThrow(c.reason);
      const failed = await c.queue.getJob(job.id!);
      expect(failed!.attemptsMade).toBe(1);
    }
    expect(await count(r.metrics, 'gauntlet_worker_episodes_total')).toBe(0);
  }, 150_000);

  it('moves a reset off a full env server to the next one (CapacityError), and skips a server that fails its health check', async () => {
    const full = await startEnvServer(['--max-sessions', '1']);
    cleanups.push(() => full.stop());
    // Take the full server's only slot, so every reset sent there is refused.
    const holder = createEnvClient(full.grpc);
    await holder.reset({ task_name: 'click-test', seed: 1 });
    cleanups.push(() => holder.close());
    const dead = `grpc://127.0.0.1:${await freePort()}`;
    const done = signalled();
    const r = await rig([dead, full.grpc, envB.grpc], groupEvents(done));
    expect(r.envs.servers.map((s) => s.healthy)).toEqual([false, true, true]);
    await r.submitter.submit(groupInput('gcap', 4));
    await done.promise;
    const [handed] = await trainerGroups(r.connection);
    expect(handed!.group.trajectories).toHaveLength(4);
    expect(await count(r.metrics, 'gauntlet_worker_env_failovers_total', { reason: 'capacity' })).toBeGreaterThan(0);
    expect(await count(r.metrics, 'gauntlet_worker_episode_retries_total')).toBe(0);
  }, 150_000);

  it('retries an episode whose env server died mid-episode on another server; the group carries no infra_error', async () => {
    const doomed = await startEnvServer();
    cleanups.push(() => doomed.stop());
    let attempts = 0;
    // The first attempt kills the server it is playing on (the first in round robin) before its first step.
    const policies: Players['policies'] = {
      forEpisode: () => ({
        server: 'script',
        policy: {
          async start() {
            const attempt = ++attempts;
            return {
              promptIds: [],
              observe: async () => [],
              async act() {
                if (attempt === 1) await doomed.stop('SIGKILL');
                return {
                  text: 'noop(0)',
                  completionIds: [],
                  logprobs: [],
                  trimmedExchanges: 0,
                  policy: { model: 'script', adapter: null, version: null },
                };
              },
            };
          },
        },
      }),
    };
    const done = signalled();
    const failures: string[] = [];
    const r = await rig(
      [doomed.grpc, envB.grpc],
      { ...groupEvents(done), episodeFailed: (_id, reason) => failures.push(reason) },
      policies,
    );
    await r.submitter.submit(groupInput('gkill', 1, { settings: { max_turns: 2, deadline_ms: 60_000 } }));
    await done.promise;
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/infrastructure error after 0 turns on attempt 1/);
    const [handed] = await trainerGroups(r.connection);
    expect(handed!.group.trajectories.map((t) => t.outcome)).toEqual(['timeout']);
    expect(await count(r.metrics, 'gauntlet_worker_episodes_total', { outcome: 'infra_error' })).toBe(1);
    expect(await count(r.metrics, 'gauntlet_worker_episode_retries_total')).toBe(1);
    expect(r.envs.servers[0]!.healthy).toBe(false);
  }, 150_000);

  it('backpressure: a producer at its cap of groups in flight waits until one finishes', async () => {
    const connection = freshConnection();
    const submitter = new GroupSubmitter(connection, { attempts: 3, backoffMs: 100, keepSeconds: 3600 });
    const tracker = new GroupTracker(connection);
    cleanups.push(
      () => removeQueues(connection),
      () => submitter.close(),
      () => tracker.close(),
    );
    await tracker.ready();
    await submitter.submit(groupInput('bp0', 2));
    await submitter.submit(groupInput('bp1', 2));
    // No worker yet: both groups wait for their episodes.
    expect(await tracker.inFlight()).toBe(2);
    const room = tracker.belowCap(2).then(async () => ({
      inFlight: await tracker.inFlight(),
      fates: [await tracker.fate('bp0'), await tracker.fate('bp1')],
    }));
    const envs = new EnvPool([envA.grpc], { probeIntervalMs: 60_000 });
    await envs.start();
    const worker = new RolloutWorker({
      connection,
      players: { envs, policies: new PolicyPool(['random']) },
      concurrency: 2,
    });
    cleanups.push(
      () => envs.close(),
      () => worker.drain(0),
    );
    const { inFlight, fates } = await room;
    expect(inFlight).toBeLessThan(2);
    expect(fates).toContain('completed');
  }, 150_000);
});
