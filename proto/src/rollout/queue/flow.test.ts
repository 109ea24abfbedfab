import { JOB_NAMES, QUEUES } from '../jobs.js';
import { describe, expect, it } from 'vitest';
import { groupFlow } from './flow.js';
import { sampleGroupInput } from '../../../test/samples.js';

const input = sampleGroupInput();

describe('groupFlow', () => {
  it('is a group parent with G episode children whose job ids derive from the group id', () => {
    const flow = groupFlow(input, { attempts: 4, backoffMs: 250, keepSeconds: 60 });
    expect(flow).toMatchObject({
      name: JOB_NAMES.group,
      queueName: QUEUES.groups,
      opts: { jobId: 'step3-click-test-4' },
    });
    expect(flow.children!.map((c) => [c.name, c.queueName, c.opts!.jobId])).toEqual(
      [0, 1, 2].map((i) => [JOB_NAMES.episode, QUEUES.episodes, `step3-click-test-4.${i}`]),
    );
    expect(groupFlow(input)).toEqual(groupFlow(input));
  });

  it('retries an episode with exponential backoff, and fails its group when it runs out of tries', () => {
    const [child] = groupFlow(input, { attempts: 4, backoffMs: 250, keepSeconds: 60 }).children!;
    expect(child!.opts).toMatchObject({
      attempts: 4,
      backoff: { type: 'exponential', delay: 250 },
      failParentOnFailure: true,
      removeOnComplete: { age: 60 },
    });
  });

  it('refuses a group that breaks the job contract before anything is enqueued', () => {
    expect(() => groupFlow({ ...input, size: 0 })).toThrow();
    expect(() => groupFlow({ ...input, group_id: 'a:b' })).toThrow(/letters, digits/);
  });
});
