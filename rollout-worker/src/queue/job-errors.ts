import type { Trajectory } from '@gauntlet/proto/rollout';

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
