import { randomUUID } from 'node:crypto';
import { JOB_NAMES, QUEUES, type TrajectoryGroup } from '@gauntlet/proto/rollout';
import { queueConnection } from '@gauntlet/proto/rollout/queue';
import { Queue, QueueEvents } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { GroupConsumer } from '../../src/rl/loop/group-consumer.js';
import { group } from '../support/trajectories.js';

// The trainer's consumer of finished groups on a real Redis (a fresh prefix): good groups reach
// the loop checked, bad payloads fail their job with the field named and are counted.
const connection = queueConnection('redis://127.0.0.1:6379', `test-${randomUUID()}`);
const base = { connection: connection.redis, prefix: connection.prefix };
const queue = new Queue(QUEUES.trajectoryGroups, base);

afterAll(async () => {
  await queue.obliterate({ force: true });
  await queue.close();
});

describe('GroupConsumer', () => {
  it('hands valid groups to the loop and fails malformed ones, naming the field', async () => {
    const events = new QueueEvents(QUEUES.trajectoryGroups, base);
    await events.waitUntilReady();
    const received: TrajectoryGroup[] = [];
    const bad: string[] = [];
    const settled = new Set<string>();
    const allSettled = new Promise<void>((resolve) => {
      const note = ({ jobId }: { jobId: string }) => (settled.add(jobId), settled.size === 3 && resolve());
      events.on('completed', note);
      events.on('failed', note);
    });
    const consumer = new GroupConsumer(connection, {
      group: (g) => received.push(g),
      bad: (id, message) => bad.push(`${id}: ${message}`),
      error: (error) => {
        throw error;
      },
    });
    try {
      await consumer.waitUntilReady();
      const good = group('good', [1, 0], { model: 'run@v0', adapter: 'run@v0', version: 0 });
      await queue.add(JOB_NAMES.trajectoryGroup, good, { jobId: 'good' });
      await queue.add(
        JOB_NAMES.trajectoryGroup,
        { ...good, group_id: 'broken', trajectories: [] },
        { jobId: 'broken' },
      );
      await queue.add('something-else', good, { jobId: 'misnamed' });
      await allSettled;
      expect(received.map((g) => g.group_id)).toEqual(['good']);
      expect(bad.sort()).toEqual([
        expect.stringMatching(/^broken: bad trajectory-group job broken: trajectories: /),
        expect.stringMatching(/^misnamed: .*only "trajectory-group" jobs belong/),
      ]);
      expect(await queue.getJobState('broken')).toBe('failed');
      expect((await queue.getJob('broken'))!.attemptsMade).toBe(1);
    } finally {
      await consumer.close();
      await events.close();
    }
  });

  it('refuses a group its check refuses (or cannot check), naming the group so the loop can account for it', async () => {
    const events = new QueueEvents(QUEUES.trajectoryGroups, base);
    await events.waitUntilReady();
    const failed = new Map<string, string>();
    const bothFailed = new Promise<void>((resolve) =>
      events.on(
        'failed',
        ({ jobId, failedReason }) => (failed.set(jobId, failedReason), failed.size === 2 && resolve()),
      ),
    );
    const bad: [string, string | null][] = [];
    const received: string[] = [];
    const consumer = new GroupConsumer(
      connection,
      {
        group: (g) => received.push(g.group_id),
        bad: (_id, message, groupId) => bad.push([message, groupId]),
        error: (error) => {
          throw error;
        },
      },
      (g) => {
        if (g.group_id === 'throws') throw new RangeError('no measure');
        return g.group_id === 'refused' ? 'turns.0.completion_ids[0] is 1000000000, outside the vocabulary' : null;
      },
    );
    try {
      await consumer.waitUntilReady();
      const policy = { model: 'run@v0', adapter: 'run@v0', version: 0 };
      for (const id of ['refused', 'throws'])
        await queue.add(JOB_NAMES.trajectoryGroup, group(id, [1, 0], policy), { jobId: id });
      await bothFailed;
      expect(received).toEqual([]);
      expect(failed.get('refused')).toMatch(/^untrainable trajectory group refused: .*outside the vocabulary/);
      expect(failed.get('throws')).toMatch(/cannot be checked: no measure/);
      expect(bad.map(([, id]) => id).sort()).toEqual(['refused', 'throws']);
    } finally {
      await consumer.close();
      await events.close();
    }
  });
});
