import { isRetiredVersionReason, QUEUES } from '@gauntlet/proto/rollout';
import { Queue } from 'bullmq';
import { groupDropReason, type QueueConnection } from '@gauntlet/proto/rollout/queue';

const STATES = ['waiting', 'prioritized', 'delayed', 'active', 'waiting-children', 'completed', 'failed'] as const;
export type QueueDepths = Record<(typeof STATES)[number], number>;

export interface RolloutStatus {
  prefix: string;
  queues: Record<keyof typeof QUEUES, QueueDepths>;
  /** Workers connected to the episodes queue (name and address, as Redis sees them). */
  workers: { name: string; addr: string; idle_s: number }[];
  /**
   * Groups by fate. `stale`: failed only because their policy version was retired while they
   * waited (BullMQ lists them as failed, as it does the dropped ones).
   */
  groups: { in_flight: number; completed: number; dropped: number; stale: number };
  /** Completed groups the trainer has not taken yet. */
  trainer_backlog: number;
}

/** A snapshot of one deployment's queues: depths, connected workers, groups done and dropped. */
export async function rolloutStatus(connection: QueueConnection): Promise<RolloutStatus> {
  const base = { connection: connection.redis, prefix: connection.prefix };
  const queues = Object.fromEntries(
    Object.entries(QUEUES).map(([key, name]) => [key, connection.watch.track(new Queue(name, base))]),
  ) as Record<keyof typeof QUEUES, Queue>;
  try {
    const depths = Object.fromEntries(
      await Promise.all(
        Object.entries(queues).map(async ([key, queue]) => [key, (await queue.getJobCounts(...STATES)) as QueueDepths]),
      ),
    ) as RolloutStatus['queues'];
    const workers = (await queues.episodes.getWorkers()).map((w) => ({
      name: workerName(String(w['rawname'] ?? '')),
      addr: String(w['addr'] ?? ''),
      idle_s: Number(w['idle'] ?? 0),
    }));
    const g = depths.groups;
    // Both from one read of the failed list: counts taken at two moments could differ, and a
    // group failing in between would make `dropped` negative.
    const { failed, stale } = await failedGroups(queues.groups, queues.episodes);
    return {
      prefix: connection.prefix,
      queues: depths,
      workers,
      groups: {
        in_flight: g.waiting + g.prioritized + g.delayed + g.active + g['waiting-children'],
        completed: g.completed,
        dropped: failed - stale,
        stale,
      },
      trainer_backlog: depths.trajectoryGroups.waiting + depths.trajectoryGroups.prioritized,
    };
  } finally {
    await Promise.allSettled(Object.values(queues).map((q) => q.close()));
  }
}

/**
 * Failed group jobs, and how many of them failed for a retired version (their episode's reason,
 * when BullMQ recorded only "child … failed").
 */
async function failedGroups(groups: Queue, episodes: Queue): Promise<{ failed: number; stale: number }> {
  const reasons = await Promise.all(
    (await groups.getFailed()).map((job) => groupDropReason(job.failedReason ?? '', episodes)),
  );
  return { failed: reasons.length, stale: reasons.filter(isRetiredVersionReason).length };
}

/** BullMQ names a worker's Redis connection `<prefix>:<base64 queue>:w:<worker name>`. */
function workerName(raw: string): string {
  const at = raw.indexOf(':w:');
  return at >= 0 ? raw.slice(at + 3) : raw;
}
