import { QUEUES, TrajectoryGroup } from '@gauntlet/proto/rollout';
import type { QueueConnection } from '@gauntlet/proto/rollout/queue';
import { Queue } from 'bullmq';
import { expect } from 'vitest';

/**
 * The versions that played the groups still on the trainer's queue (completed, kept in Redis),
 * each turn checked to name its version's adapter, `<run>@v<N>`.
 */
export async function turnVersions(connection: QueueConnection, run: string): Promise<Set<number>> {
  const queue = new Queue(QUEUES.trajectoryGroups, { connection: connection.redis, prefix: connection.prefix });
  const groups = (await queue.getJobs(['completed'])).map((job) => TrajectoryGroup.parse(job.data));
  await queue.close();
  const versions = new Set<number>();
  for (const group of groups)
    for (const t of group.trajectories)
      for (const turn of t.turns) {
        expect(turn.policy.adapter).toBe(`${run}@v${turn.policy.version}`);
        expect(turn.policy.model).toBe(turn.policy.adapter);
        versions.add(turn.policy.version!);
      }
  return versions;
}
