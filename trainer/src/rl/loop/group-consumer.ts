import { QUEUES, type TrajectoryGroup } from '@gauntlet/proto/rollout';
import { BadJobError, readJob, TRAJECTORY_GROUP_JOBS, type QueueConnection } from '@gauntlet/proto/rollout/queue';
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';

export interface ConsumerEvents {
  group(group: TrajectoryGroup): void;
  /**
   * A job on the queue was not a trainable TrajectoryGroup: it failed (kept in Redis for a look).
   * `groupId` is the payload's group_id when it has one, so the loop can account for its group.
   */
  bad(jobId: string, message: string, groupId: string | null): void;
  error(error: Error): void;
}

/**
 * Why a group that passed the schema cannot be trained on (null: it can); see
 * admission/trainable.ts.
 */
export type GroupCheck = (group: TrajectoryGroup) => string | null;

/**
 * The trainer's end of QUEUES.trajectoryGroups: a BullMQ worker that checks every finished group
 * against the TrajectoryGroup contract, then against `check` (what the model can take), and
 * hands it to the loop. A bad payload fails its job at once (UnrecoverableError naming the field
 * at fault); it never reaches the learner.
 */
export class GroupConsumer {
  private readonly worker: Worker;
  private readonly queue: Queue;
  private readonly offError: () => void;

  constructor(connection: QueueConnection, events: ConsumerEvents, check: GroupCheck = () => null) {
    const { watch } = connection;
    this.queue = watch.track(
      new Queue(QUEUES.trajectoryGroups, { connection: connection.redis, prefix: connection.prefix }),
    );
    this.worker = new Worker(
      QUEUES.trajectoryGroups,
      async (job: Job) => {
        let group: TrajectoryGroup;
        try {
          group = readJob(TRAJECTORY_GROUP_JOBS, job);
        } catch (error) {
          if (error instanceof BadJobError) events.bad(String(job.id), error.message, error.groupId);
          throw error;
        }
        const problem = checked(check, group);
        if (problem !== null) {
          const message = `untrainable trajectory group ${job.id}: ${problem}`;
          events.bad(String(job.id), message, group.group_id);
          throw new UnrecoverableError(message);
        }
        events.group(group);
      },
      { connection: connection.redis, prefix: connection.prefix, concurrency: 8, name: 'trainer' },
    );
    // Connection errors are the watch's (one line per outage); the others are reported here.
    watch.track(this.worker);
    this.offError = watch.onError((error) => events.error(error));
  }

  async waitUntilReady(): Promise<void> {
    await this.worker.waitUntilReady();
  }

  /** Whether the group's job on the trainer's queue was already taken (by any consumer). */
  async taken(groupId: string): Promise<boolean> {
    const state = await this.queue.getJobState(groupId);
    return state === 'completed' || state === 'failed' || state === 'active';
  }

  async close(): Promise<void> {
    this.offError();
    await Promise.allSettled([this.worker.close(), this.queue.close()]);
  }
}

/** The check's verdict; a check that throws (a group it cannot even measure) refuses the group with its message. */
function checked(check: GroupCheck, group: TrajectoryGroup): string | null {
  try {
    return check(group);
  } catch (error) {
    return `it cannot be checked: ${(error as Error).message}`;
  }
}
