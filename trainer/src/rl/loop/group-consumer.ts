import { JOB_NAMES, QUEUES, TrajectoryGroup } from '@gauntlet/proto/rollout';
import type { QueueConnection } from '@gauntlet/proto/rollout/queue';
import { UnrecoverableError, Worker, type Job } from 'bullmq';

export interface ConsumerEvents {
  group(group: TrajectoryGroup): void;
  /** A job on the queue was not a TrajectoryGroup: it failed (kept in Redis for a look) and was counted. */
  bad(jobId: string, message: string): void;
  error(error: Error): void;
}

/**
 * The trainer's end of QUEUES.trajectoryGroups: a BullMQ worker that checks every finished group
 * against the TrajectoryGroup contract and hands it to the loop. A bad payload fails its job at
 * once (UnrecoverableError naming the field at fault); it never reaches the learner.
 */
export class GroupConsumer {
  private readonly worker: Worker;

  constructor(connection: QueueConnection, events: ConsumerEvents) {
    this.worker = new Worker(
      QUEUES.trajectoryGroups,
      async (job: Job) => {
        if (job.name !== JOB_NAMES.trajectoryGroup) {
          const message = `job ${job.id} is named ${JSON.stringify(job.name)}; only "${JOB_NAMES.trajectoryGroup}" jobs belong on ${QUEUES.trajectoryGroups}`;
          events.bad(String(job.id), message);
          throw new UnrecoverableError(message);
        }
        const parsed = TrajectoryGroup.safeParse(job.data);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          const message = `bad trajectory group ${job.id}: ${issue.path.map(String).join('.') || '(payload)'}: ${issue.message}`;
          events.bad(String(job.id), message);
          throw new UnrecoverableError(message);
        }
        events.group(parsed.data);
      },
      { connection: connection.redis, prefix: connection.prefix, concurrency: 8, name: 'trainer' },
    );
    this.worker.on('error', (error) => events.error(error));
  }

  async waitUntilReady(): Promise<void> {
    await this.worker.waitUntilReady();
  }

  async close(): Promise<void> {
    await this.worker.close();
  }
}
