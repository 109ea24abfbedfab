import { QUEUES } from '@gauntlet/proto/rollout';
import { Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { QueueConnection } from '@gauntlet/proto/rollout/queue';
import { queueConnection } from '@gauntlet/proto/rollout/queue';
import { GroupSubmitter } from '@gauntlet/proto/rollout/queue';
import { startEnvServer, type EnvServerProcess } from '../support/env-server.js';
import { StepGate } from '../support/gate-proxy.js';
import { freshConnection, removeQueues, SHARED_REDIS, startOwnRedis } from '../support/redis.js';
import { groupInput, trainerGroups } from '../support/rollout.js';
import { startWorker } from '../support/worker-process.js';

// Workers run as their own processes (the built bin) so they can be SIGKILLed and SIGTERMed; a
// gate in front of the env server's HTTP port holds steps, so "mid-episode" is a known point.
let env: EnvServerProcess;
const cleanups: (() => Promise<unknown>)[] = [];
const FAST_LOCKS = ['--lock-ms', '2000', '--stalled-interval-ms', '1000'];

beforeAll(async () => {
  // Sessions of a killed HTTP client live until their idle TTL: room for them and the re-runs.
  env = await startEnvServer(['--max-sessions', '16']);
}, 150_000);
afterAll(async () => {
  await env?.stop();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function gate(): Promise<StepGate> {
  const g = await new StepGate(env.http).listen();
  cleanups.push(() => g.close());
  return g;
}

async function submit(connection: QueueConnection, groupId: string, size: number): Promise<void> {
  const submitter = new GroupSubmitter(connection, { attempts: 3, backoffMs: 100, keepSeconds: 3600 });
  try {
    expect(
      await submitter.submit(groupInput(groupId, size, { settings: { max_turns: 3, deadline_ms: 120_000 } })),
    ).toBe('added');
  } finally {
    await submitter.close();
  }
}

async function episodeJobs(connection: QueueConnection) {
  const queue = new Queue(QUEUES.episodes, { connection: connection.redis, prefix: connection.prefix });
  try {
    return await queue.getJobs(['completed', 'failed', 'wait', 'active', 'delayed']);
  } finally {
    await queue.close();
  }
}

function expectWholeGroup(handed: Awaited<ReturnType<typeof trainerGroups>>, groupId: string, size: number): void {
  expect(handed.map((h) => h.id)).toEqual([groupId]);
  const ids = handed[0]!.group.trajectories.map((t) => t.episode_id);
  expect(ids).toEqual(Array.from({ length: size }, (_, i) => `${groupId}.${i}`));
}

describe('a group survives', () => {
  it('a worker SIGKILLed mid-episode: its episodes stall, another worker re-runs them, the group completes exactly once', async () => {
    const connection = freshConnection();
    cleanups.push(() => removeQueues(connection));
    const g = await gate();
    const args = ['--prefix', connection.prefix, '--env', g.url, '--concurrency', '4', ...FAST_LOCKS];
    const doomed = await startWorker(args);
    cleanups.push(() => doomed.stop('SIGKILL'));
    await submit(connection, 'gk', 4);
    await g.heldSteps(1);
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const rescuer = await startWorker(args);
    cleanups.push(() => rescuer.stop());
    g.open();
    await rescuer.waitFor(/^group gk done: /, 90_000, true);
    expectWholeGroup(await trainerGroups(connection), 'gk', 4);
    const jobs = await episodeJobs(connection);
    expect(jobs.map((j) => j.finishedOn !== undefined && j.failedReason === undefined)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    // The held episodes were started twice (stalled, then re-run); a stall is not a failed try, so
    // each completed on its first counted attempt.
    expect(Math.max(...jobs.map((j) => j.attemptsStarted))).toBeGreaterThanOrEqual(2);
    expect(jobs.map((j) => j.attemptsMade)).toEqual([1, 1, 1, 1]);
    expect(rescuer.output()).not.toMatch(/failed for good|dropped/);
  }, 150_000);

  it('a Redis restart (AOF) mid-run: nothing lost, the group completes', async () => {
    const redis = await startOwnRedis();
    cleanups.push(() => redis.stop());
    const connection = queueConnection(redis.url, 'test-restart');
    const g = await gate();
    const worker = await startWorker([
      '--redis',
      redis.url,
      '--prefix',
      connection.prefix,
      '--env',
      g.url,
      '--concurrency',
      '4',
      ...FAST_LOCKS,
    ]);
    cleanups.push(() => worker.stop('SIGKILL'));
    await submit(connection, 'gr', 4);
    await g.heldSteps(1);
    await redis.restart();
    g.open();
    await worker.waitFor(/^group gr done: /, 90_000, true);
    expectWholeGroup(await trainerGroups(connection), 'gr', 4);
    expect(worker.output()).not.toMatch(/failed for good|dropped/);
  }, 150_000);

  it('SIGTERM: the worker stops taking episodes and hands unfinished ones back after --drain-ms; another worker finishes the group', async () => {
    const connection = freshConnection(SHARED_REDIS);
    cleanups.push(() => removeQueues(connection));
    const g = await gate();
    const args = ['--prefix', connection.prefix, '--env', g.url, '--concurrency', '4'];
    const draining = await startWorker([...args, '--drain-ms', '300']);
    cleanups.push(() => draining.stop('SIGKILL'));
    await submit(connection, 'gd', 4);
    await g.heldSteps(4);
    draining.child.kill('SIGTERM');
    expect(await draining.exited).toEqual({ code: 0, signal: null });
    expect(draining.output()).toMatch(/draining: 4 running episodes get 300 ms/);
    const back = await episodeJobs(connection);
    expect(back.map((j) => [j.attemptsMade, j.finishedOn])).toEqual(Array.from({ length: 4 }, () => [0, undefined]));
    const next = await startWorker(args);
    cleanups.push(() => next.stop());
    g.open();
    await next.waitFor(/^group gd done: /, 90_000, true);
    expectWholeGroup(await trainerGroups(connection), 'gd', 4);
  }, 150_000);
});
