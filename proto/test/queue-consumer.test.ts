import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { EPISODE_JOBS, GROUP_JOBS, GroupSubmitter, queueConnection, readJob } from '../src/rollout/queue/index.js';
import { GroupJob, JOB_NAMES, QUEUES } from '../src/rollout/jobs.js';
import { sampleGroupInput } from './samples.js';

// Both sides of the queue contract on a real Redis (a fresh test-<uuid> prefix, removed after).
const connection = queueConnection('redis://127.0.0.1:6379', `test-${randomUUID()}`);
const base = { connection: connection.redis, prefix: connection.prefix };
const groups = new Queue(QUEUES.groups, base);
const episodes = new Queue(QUEUES.episodes, base);

afterAll(async () => {
  for (const queue of [groups, episodes]) {
    await queue.obliterate({ force: true });
    await queue.close();
  }
});

const group = (id: string) => GroupJob.parse(sampleGroupInput(id, 2));

describe('the consumer side of the queue contract', () => {
  it('a worker reading with readJob takes good jobs and fails the rest at their first attempt', async () => {
    const events = new QueueEvents(QUEUES.groups, base);
    await events.waitUntilReady();
    const read: string[] = [];
    const failed = new Map<string, string>();
    const done = new Set<string>();
    const settled = new Promise<void>((resolve) => {
      const note = (jobId: string) => (done.add(jobId), done.size === 3 && resolve());
      events.on('completed', ({ jobId }) => note(jobId));
      events.on('failed', ({ jobId, failedReason }) => (failed.set(jobId, failedReason), note(jobId)));
    });
    const worker = new Worker(QUEUES.groups, async (job) => void read.push(readJob(GROUP_JOBS, job).group_id), base);
    try {
      const tries = { attempts: 3, backoff: { type: 'fixed', delay: 10 } };
      await groups.add(JOB_NAMES.group, group('good'), { jobId: 'good', ...tries });
      await groups.add(JOB_NAMES.group, { ...group('broken'), size: -1 }, { jobId: 'broken', ...tries });
      await groups.add(JOB_NAMES.episode, group('misnamed'), { jobId: 'misnamed', ...tries });
      await settled;
      expect(read).toEqual(['good']);
      expect(failed.get('broken')).toMatch(/^bad group job broken: size: /);
      expect(failed.get('misnamed')).toBe(
        `job misnamed on ${QUEUES.groups} is named "episode"; only "group" jobs belong there`,
      );
      for (const id of ['broken', 'misnamed']) expect((await groups.getJob(id))!.attemptsMade).toBe(1);
    } finally {
      await worker.close();
      await events.close();
    }
  });

  it('GroupSubmitter.remove takes a group and its unplayed episodes out of Redis', async () => {
    const submitter = new GroupSubmitter(connection);
    try {
      await submitter.submit(group('withdrawn'));
      expect(await episodes.getJobCounts('waiting')).toMatchObject({ waiting: 2 });
      const [first] = await episodes.getJobs(['waiting']);
      expect(readJob(EPISODE_JOBS, first!).episode_id).toMatch(/^withdrawn\.\d$/);
      expect(await submitter.remove('withdrawn')).toBe(true);
      expect(await groups.getJob('withdrawn')).toBeUndefined();
      expect(await episodes.getJobCounts('waiting')).toMatchObject({ waiting: 0 });
      expect(await submitter.remove('never-submitted')).toBe(false);
    } finally {
      await submitter.close();
    }
  });
});
