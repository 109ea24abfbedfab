import { QUEUES } from '@gauntlet/proto/rollout';
import type { QueueConnection } from '@gauntlet/proto/rollout/queue';
import { Queue } from 'bullmq';

/** Finished groups a run leaves in Redis for a look (the viewer, debugging), by default. */
export const DEFAULT_KEEP_GROUPS = 32;

/**
 * Keeps Redis bounded over a long run: every group the loop is done with (trained on, stale,
 * refused, dropped) is noted, and once more than `keep` are noted the oldest is removed whole —
 * its job on the trainer's queue, and its group job with its episode jobs (each holds a copy of
 * the trajectories, about 80 KB a group together). The last `keep` stay for a look.
 */
export class GroupRetention {
  private readonly done: string[] = [];
  private readonly groups: Queue;
  private readonly trained: Queue;

  constructor(
    connection: QueueConnection,
    private readonly keep = DEFAULT_KEEP_GROUPS,
  ) {
    const base = { connection: connection.redis, prefix: connection.prefix };
    this.groups = connection.watch.track(new Queue(QUEUES.groups, base));
    this.trained = connection.watch.track(new Queue(QUEUES.trajectoryGroups, base));
  }

  /** The loop is done with these groups; removes the oldest beyond `keep`. */
  async finished(...groupIds: string[]): Promise<void> {
    this.done.push(...groupIds);
    const old = this.done.splice(0, Math.max(0, this.done.length - this.keep));
    for (const id of old) await this.remove(id);
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.groups.close(), this.trained.close()]);
  }

  private async remove(id: string): Promise<void> {
    // A job still locked (being finished this instant) stays; the queues' own age limit takes it later.
    await Promise.allSettled([
      this.trained.remove(id),
      this.groups.getJob(id).then((job) => job?.remove({ removeChildren: true })),
    ]);
  }
}
