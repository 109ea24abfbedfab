import { UnrecoverableError } from 'bullmq';
import type { z } from 'zod';
import { EpisodeJob, GroupJob, JOB_NAMES, QUEUES } from '../jobs.js';
import { TrajectoryGroup } from '../trajectory.js';

/** What one queue carries: the name of its jobs and the schema of their payloads. */
export interface JobContract<T> {
  queue: string;
  name: string;
  schema: z.ZodType<T>;
}

export const EPISODE_JOBS: JobContract<EpisodeJob> = {
  queue: QUEUES.episodes,
  name: JOB_NAMES.episode,
  schema: EpisodeJob,
};
export const GROUP_JOBS: JobContract<GroupJob> = { queue: QUEUES.groups, name: JOB_NAMES.group, schema: GroupJob };
export const TRAJECTORY_GROUP_JOBS: JobContract<TrajectoryGroup> = {
  queue: QUEUES.trajectoryGroups,
  name: JOB_NAMES.trajectoryGroup,
  schema: TrajectoryGroup,
};

/**
 * A job that breaks its queue's contract (wrong name, bad payload): it fails at once, since no
 * retry can fix it. `groupId` is the payload's group_id when it has one, so whoever waits on the
 * group can account for it.
 */
export class BadJobError extends UnrecoverableError {
  constructor(
    message: string,
    readonly groupId: string | null,
  ) {
    super(message);
  }
}

/** The part of a BullMQ job a consumer reads. */
export interface ReceivedJob {
  id?: string | undefined;
  name: string;
  data: unknown;
}

/** The payload of a job taken off `contract.queue`, checked against the contract, or BadJobError. */
export function readJob<T>(contract: JobContract<T>, job: ReceivedJob): T {
  if (job.name !== contract.name)
    throw new BadJobError(
      `job ${job.id ?? '(no id)'} on ${contract.queue} is named ${JSON.stringify(job.name)}; only "${contract.name}" jobs belong there`,
      null,
    );
  return parsePayload(contract.schema, contract.name, job.id, job.data);
}

/** `data` checked against `schema`, or BadJobError naming the job and the first field at fault. */
export function parsePayload<T>(schema: z.ZodType<T>, kind: string, jobId: string | undefined, data: unknown): T {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const { issues } = parsed.error;
  const issue = issues[0]!;
  const path = issue.path.length ? issue.path.map(String).join('.') : '(payload)';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  throw new BadJobError(`bad ${kind} job ${jobId ?? '(no id)'}: ${path}: ${issue.message}${more}`, groupIdOf(data));
}

function groupIdOf(data: unknown): string | null {
  const id = (data as { group_id?: unknown } | null)?.group_id;
  return typeof id === 'string' ? id : null;
}
