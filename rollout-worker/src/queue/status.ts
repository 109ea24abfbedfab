import { QUEUES } from '@gauntlet/proto/rollout';
import { Queue } from 'bullmq';
import type { QueueConnection } from '@gauntlet/proto/rollout/queue';

const STATES = ['waiting', 'prioritized', 'delayed', 'active', 'waiting-children', 'completed', 'failed'] as const;
export type QueueDepths = Record<(typeof STATES)[number], number>;

export interface RolloutStatus {
  prefix: string;
  queues: Record<keyof typeof QUEUES, QueueDepths>;
  /** Workers connected to the episodes queue (name and address, as Redis sees them). */
  workers: { name: string; addr: string; idle_s: number }[];
  groups: { in_flight: number; completed: number; dropped: number };
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
    return {
      prefix: connection.prefix,
      queues: depths,
      workers,
      groups: {
        in_flight: g.waiting + g.prioritized + g.delayed + g.active + g['waiting-children'],
        completed: g.completed,
        dropped: g.failed,
      },
      trainer_backlog: depths.trajectoryGroups.waiting + depths.trajectoryGroups.prioritized,
    };
  } finally {
    await Promise.allSettled(Object.values(queues).map((q) => q.close()));
  }
}

/** BullMQ names a worker's Redis connection `<prefix>:<base64 queue>:w:<worker name>`. */
function workerName(raw: string): string {
  const at = raw.indexOf(':w:');
  return at >= 0 ? raw.slice(at + 3) : raw;
}
