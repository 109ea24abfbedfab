import { isUnrecoverable, type Trajectory } from '@gauntlet/proto/rollout';
import { EPISODE_JOBS, readJob } from '@gauntlet/proto/rollout/queue';
import { UnrecoverableError, WaitingError, type Job, type Queue } from 'bullmq';
import { playEpisode, type Players } from '../episode/play.js';
import type { WorkerMetrics } from '../metrics/metrics.js';
import { EpisodeInfraError } from './job-errors.js';

export interface EpisodeProcessorDeps {
  players: Players;
  /** QUEUES.groups, to see whether an episode's group is still waiting for it. */
  groups: Queue;
  metrics?: WorkerMetrics | undefined;
  /** True once the worker drains: an aborted episode then goes back to the queue. */
  draining(): boolean;
  onEpisode?(trajectory: Trajectory, attempt: number): void;
}

/** What an episode job returns: its trajectory, or null when its group was already dropped. */
export type EpisodeResult = Trajectory | null;

/**
 * The processor of QUEUES.episodes. A payload that is not an EpisodeJob fails at once
 * (UnrecoverableError, with the field at fault); an episode of a dropped group is skipped; an
 * `infra_error` is thrown so BullMQ retries it with backoff; a wrong job (unknown task, wrong
 * model) fails at once. When the worker drains past its deadline the episode is handed back
 * to the queue unfinished, for another worker to play from the start; so is one that found no
 * env session free within the wait (back-pressure: it spends no try, so capacity drops no group).
 */
export function episodeProcessor(deps: EpisodeProcessorDeps) {
  return async (job: Job, token?: string, signal?: AbortSignal): Promise<EpisodeResult> => {
    const episode = readJob(EPISODE_JOBS, job);
    const attempt = job.attemptsStarted;
    // A try spent or a stall makes a retry; a hand-back (drain, busy env) spent neither.
    if (job.attemptsMade > 0 || job.stalledCounter > 0) deps.metrics?.retries.inc();
    else if (attempt === 1) deps.metrics?.queueWaitSeconds.observe(Math.max(0, Date.now() - job.timestamp) / 1000);
    // A sibling out of tries already dropped the group: its remaining episodes would be wasted work.
    const groupId = job.parent?.id;
    if (groupId && (await deps.groups.getJobState(groupId)) !== 'waiting-children') return null;
    deps.metrics?.episodesInFlight.inc();
    try {
      const trajectory = await playEpisode(episode, deps.players, signal);
      if (trajectory.outcome === 'infra_error' && trajectory.error?.name === 'EnvBusyError') {
        await job.moveToWait(token);
        deps.metrics?.handedBack.inc({ reason: 'capacity' });
        throw new WaitingError();
      }
      deps.metrics?.episode(trajectory);
      deps.onEpisode?.(trajectory, attempt);
      if (trajectory.outcome === 'infra_error') throw new EpisodeInfraError(trajectory, `attempt ${attempt}`);
      return trajectory;
    } catch (error) {
      if (error instanceof WaitingError) throw error;
      if (signal?.aborted && deps.draining()) {
        await job.moveToWait(token);
        deps.metrics?.handedBack.inc({ reason: 'drain' });
        throw new WaitingError();
      }
      if (isUnrecoverable(error))
        throw new UnrecoverableError(`episode ${episode.episode_id} cannot be played: ${(error as Error).message}`);
      throw error;
    } finally {
      deps.metrics?.episodesInFlight.dec();
    }
  };
}
