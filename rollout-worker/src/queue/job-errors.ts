import type { Trajectory } from '@gauntlet/proto/rollout';
import { UnrecoverableError } from 'bullmq';

/**
 * An episode ended as `infra_error`: thrown so BullMQ retries it with backoff. Never a reward;
 * once out of tries its group is dropped.
 */
export class EpisodeInfraError extends Error {
  override name = 'EpisodeInfraError';
  constructor(trajectory: Trajectory, where: string) {
    super(
      `episode ${trajectory.episode_id} hit an infrastructure error after ${trajectory.turns.length} turns on ${where}: ${trajectory.error?.name ?? 'Error'}: ${trajectory.error?.message ?? 'unknown'}`,
    );
  }
}

/** A job whose payload is not what its queue takes: fails at once (no retry can fix it). */
export function badPayload(
  kind: string,
  jobId: string | undefined,
  error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] },
): UnrecoverableError {
  const issue = error.issues[0]!;
  const path = issue.path.length ? issue.path.map(String).join('.') : '(payload)';
  const more =
    error.issues.length > 1
      ? ` (and ${error.issues.length - 1} more problem${error.issues.length > 2 ? 's' : ''})`
      : '';
  return new UnrecoverableError(`bad ${kind} job ${jobId ?? '(no id)'}: ${path}: ${issue.message}${more}`);
}
