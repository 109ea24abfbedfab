import { QUEUES } from '@gauntlet/proto/rollout';
import { GroupSubmitter, type QueueConnection } from '@gauntlet/proto/rollout/queue';
import { Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEnvServer, type EnvServerProcess } from '../support/env-server.js';
import { freshConnection, removeQueues } from '../support/redis.js';
import { groupInput, trainerGroups } from '../support/rollout.js';
import { scrape } from '../support/scrape.js';
import { startWorker, type WorkerProcess } from '../support/worker-process.js';

// More episodes at once than the env server has sessions: real workers (the built bin) on a real
// Redis against one real `gauntlet-env serve --max-sessions 2`. Capacity must cost nothing but time.
const SESSIONS = 2;
let env: EnvServerProcess;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  env = await startEnvServer(['--max-sessions', String(SESSIONS)]);
}, 150_000);
afterAll(async () => {
  await env?.stop();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function submitGroups(connection: QueueConnection, prefix: string, groups: number, size: number) {
  const submitter = new GroupSubmitter(connection, { attempts: 3, backoffMs: 100, keepSeconds: 3600 });
  try {
    for (let g = 0; g < groups; g++)
      expect(
        await submitter.submit(
          groupInput(`${prefix}${g}`, size, { seed: g, settings: { max_turns: 3, deadline_ms: 60_000 } }),
        ),
      ).toBe('added');
  } finally {
    await submitter.close();
  }
}

async function workers(connection: QueueConnection, n: number, extra: string[]): Promise<WorkerProcess[]> {
  const started = await Promise.all(
    Array.from({ length: n }, () =>
      startWorker(['--prefix', connection.prefix, '--env', env.grpc, ...extra], { metrics: true }),
    ),
  );
  for (const w of started) cleanups.push(() => w.stop('SIGKILL'));
  return started;
}

/** Every group handed to the trainer, none failed: the groups queue is the one place a drop shows. */
async function allGroupsDone(connection: QueueConnection, groups: number): Promise<void> {
  await vi.waitFor(async () => expect(await trainerGroups(connection)).toHaveLength(groups), {
    timeout: 120_000,
    interval: 250,
  });
  const queue = new Queue(QUEUES.groups, { connection: connection.redis, prefix: connection.prefix });
  try {
    expect(await queue.getJobCounts('completed', 'failed')).toEqual({ completed: groups, failed: 0 });
  } finally {
    await queue.close();
  }
}

/** A figure summed over every worker. */
async function total(ws: WorkerProcess[], name: string, labels: Record<string, string> = {}): Promise<number> {
  const each = await Promise.all(ws.map((w) => scrape(w.metricsUrl!, name, labels)));
  return each.reduce((a, b) => a + b, 0);
}

async function expectNoCapacityCost(ws: WorkerProcess[], episodes: number): Promise<void> {
  expect(await total(ws, 'gauntlet_worker_env_failovers_total', { reason: 'capacity' })).toBe(0);
  expect(await total(ws, 'gauntlet_worker_groups_dropped_total')).toBe(0);
  expect(await total(ws, 'gauntlet_worker_episode_retries_total')).toBe(0);
  expect(await total(ws, 'gauntlet_worker_episodes_total', { outcome: 'infra_error' })).toBe(0);
  expect(await total(ws, 'gauntlet_worker_episodes_total')).toBe(episodes);
  for (const w of ws) expect(w.output()).not.toMatch(/will be retried|failed for good|dropped/);
}

describe('more episodes at once than the env has sessions', () => {
  it('3 workers × 2 episodes against 2 sessions: episodes wait for a session, every group completes, nothing is retried or dropped', async () => {
    const connection = freshConnection();
    cleanups.push(() => removeQueues(connection));
    const ws = await workers(connection, 3, ['--concurrency', '2']);
    await submitGroups(connection, 'cap', 4, 4);
    await allGroupsDone(connection, 4);
    await expectNoCapacityCost(ws, 16);
    // The env really was over-subscribed: it refused sessions, and the workers waited instead of failing.
    expect(await scrape(`${env.http}/metrics`, 'gauntlet_env_capacity_rejections_total')).toBeGreaterThan(0);
    expect(await total(ws, 'gauntlet_worker_env_waits_total')).toBeGreaterThan(0);
    for (const w of ws) await w.stop();
    await vi.waitFor(async () => expect(await scrape(`${env.http}/metrics`, 'gauntlet_env_sessions_active')).toBe(0));
  }, 180_000);

  it('a wait past --env-wait-ms hands the episode back to the queue without spending a try; the groups still complete', async () => {
    const connection = freshConnection();
    cleanups.push(() => removeQueues(connection));
    // Six at once on two sessions, each allowed to wait only 1 ms: most must go back to the queue.
    const ws = await workers(connection, 1, ['--concurrency', '6', '--env-wait-ms', '1']);
    await submitGroups(connection, 'back', 2, 6);
    await allGroupsDone(connection, 2);
    await expectNoCapacityCost(ws, 12);
    expect(await total(ws, 'gauntlet_worker_episodes_handed_back_total', { reason: 'capacity' })).toBeGreaterThan(0);
  }, 180_000);
});
