import { GroupJob, JOB_NAMES, QUEUES, episodeJobs, type GroupJobInput } from '../jobs.js';
import type { FlowJob, JobsOptions } from 'bullmq';

/** How hard a group tries before it is dropped, and how long finished jobs stay in Redis. */
export interface RetryPolicy {
  /** Tries per episode, the first included; after the last the whole group is dropped. */
  attempts: number;
  /** First retry delay in ms; doubles each retry. */
  backoffMs: number;
  /**
   * Finished groups and episodes stay at most this long, so a resubmitted group id is recognised,
   * not replayed. An hour, not days: a group is about 80 KB in Redis, and the trainer removes the
   * groups it is done with anyway (grpo --keep-groups).
   */
  keepSeconds: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 3, backoffMs: 1_000, keepSeconds: 3600 };

/**
 * A group as a BullMQ flow: the `group` parent on QUEUES.groups waits for its G `episode`
 * children on QUEUES.episodes. Job ids are the group id and the episode ids derived from it, so
 * adding the same group twice adds nothing the second time. A child out of tries fails its
 * parent (the group is dropped whole, never padded).
 */
export function groupFlow(input: GroupJobInput | GroupJob, policy: RetryPolicy = DEFAULT_RETRY_POLICY): FlowJob {
  const group = GroupJob.parse(input);
  const keep = { age: policy.keepSeconds };
  const episode: JobsOptions = {
    attempts: policy.attempts,
    backoff: { type: 'exponential', delay: policy.backoffMs },
    failParentOnFailure: true,
    removeOnComplete: keep,
    removeOnFail: keep,
  };
  return {
    name: JOB_NAMES.group,
    queueName: QUEUES.groups,
    data: group,
    // The parent only assembles the group; a retry covers a Redis hiccup while it hands it on.
    opts: {
      jobId: group.group_id,
      attempts: 3,
      backoff: { type: 'exponential', delay: 500 },
      removeOnComplete: keep,
      removeOnFail: keep,
    },
    children: episodeJobs(group).map((data) => ({
      name: JOB_NAMES.episode,
      queueName: QUEUES.episodes,
      data,
      opts: { ...episode, jobId: data.episode_id },
    })),
  };
}
