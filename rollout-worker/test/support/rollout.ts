import { QUEUES, TrajectoryGroup, type GroupJobInput } from '@gauntlet/proto/rollout';
import { Queue } from 'bullmq';
import type { QueueConnection } from '@gauntlet/proto/rollout/queue';

/** A group job for tests: click-test, seed 3, random-policy provenance, short deadlines. */
export function groupInput(groupId: string, size: number, extra: Partial<GroupJobInput> = {}): GroupJobInput {
  return {
    group_id: groupId,
    task: 'click-test',
    seed: 3,
    size,
    policy: { model: 'random', adapter: null, version: null },
    settings: { max_turns: 5, deadline_ms: 60_000, sampling: { seed: 11 } },
    submitted_at: new Date().toISOString(),
    ...extra,
  };
}

/** What the trainer would find on its queue: every group handed over, checked against the contract. */
export async function trainerGroups(connection: QueueConnection): Promise<{ id: string; group: TrajectoryGroup }[]> {
  const queue = new Queue(QUEUES.trajectoryGroups, { connection: connection.redis, prefix: connection.prefix });
  try {
    const jobs = await queue.getJobs(['wait', 'prioritized', 'delayed', 'active', 'completed', 'failed']);
    return jobs.map((job) => ({ id: String(job.id), group: TrajectoryGroup.parse(job.data) }));
  } finally {
    await queue.close();
  }
}

/** A promise settled by the first call of `fire` or `fail` (events → awaitable, no polling). */
export function signalled<T = void>(): { promise: Promise<T>; fire: (value: T) => void; fail: (error: Error) => void } {
  let fire!: (value: T) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<T>((resolve, reject) => ((fire = resolve), (fail = reject)));
  return { promise, fire, fail };
}

/** Worker events that settle `done` when a group completes, and fail it at once when one is dropped. */
export function groupEvents(done: { fire: () => void; fail: (error: Error) => void }) {
  return {
    groupCompleted: () => done.fire(),
    groupDropped: (id: string, reason: string) => done.fail(new Error(`group ${id} was dropped: ${reason}`)),
  };
}
