import { GroupJob, QUEUES, type GroupJobInput } from '../jobs.js';
import { FlowProducer, Queue } from 'bullmq';
import type { QueueConnection } from './connection.js';
import { DEFAULT_RETRY_POLICY, groupFlow, type RetryPolicy } from './flow.js';

export type SubmitResult = 'added' | 'exists';

/**
 * Enqueues groups (what the trainer does each step). A group id already in Redis — waiting,
 * running, done or dropped — is left alone: resubmitting never replays or duplicates an episode.
 */
export class GroupSubmitter {
  private readonly flows: FlowProducer;
  private readonly groups: Queue;

  constructor(
    connection: QueueConnection,
    private readonly retry: RetryPolicy = DEFAULT_RETRY_POLICY,
  ) {
    const { watch } = connection;
    this.flows = watch.track(new FlowProducer({ connection: connection.redis, prefix: connection.prefix }));
    this.groups = watch.track(new Queue(QUEUES.groups, { connection: connection.redis, prefix: connection.prefix }));
  }

  async submit(input: GroupJobInput | GroupJob): Promise<SubmitResult> {
    const group = GroupJob.parse(input);
    // BullMQ skips a parent id it has, but would re-add children already removed; so ask first.
    if (await this.groups.getJob(group.group_id)) return 'exists';
    await this.flows.add(groupFlow(group, this.retry));
    return 'added';
  }

  /**
   * Removes a group's job with its episode jobs: episodes not yet played never are. False when
   * the group is not in Redis. A group whose episodes are being played is locked and rejects; it
   * finishes on the trainer's queue instead.
   */
  async remove(groupId: string): Promise<boolean> {
    const job = await this.groups.getJob(groupId);
    if (!job) return false;
    await job.remove({ removeChildren: true });
    return true;
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.flows.close(), this.groups.close()]);
  }
}
