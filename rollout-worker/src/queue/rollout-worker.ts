import { isRetiredVersionReason, QUEUES, type Trajectory } from '@gauntlet/proto/rollout';
import { DEFAULT_RETRY_POLICY, groupDropReason, type QueueConnection } from '@gauntlet/proto/rollout/queue';
import { Queue, Worker, type Job } from 'bullmq';
import type { Players } from '../episode/play.js';
import type { WorkerMetrics } from '../metrics/metrics.js';
import { episodeProcessor, type EpisodeResult } from './episode-processor.js';
import { followEnvCapacity } from './follow-env-capacity.js';
import { groupProcessor, type GroupSummary } from './group-processor.js';

export interface RolloutWorkerOptions {
  connection: QueueConnection;
  players: Players;
  /**
   * Episodes played at once at most (each holds one env session); fewer while the env servers are
   * full (followEnvCapacity).
   */
  concurrency: number;
  /** Shown by `gauntlet-worker status` (default: host and pid). */
  name?: string;
  metrics?: WorkerMetrics | undefined;
  /**
   * How long a job's lock lives without renewal (default 30 000 ms): a killed worker's episode
   * goes back to the queue about this long after its last renewal.
   */
  lockMs?: number;
  /** How often stalled jobs are looked for (default 30 000 ms). */
  stalledIntervalMs?: number;
  /** Stalls an episode survives before it fails (default 2). */
  maxStalledCount?: number;
  keepSeconds?: number;
  events?: Partial<RolloutEvents>;
}

/** What a worker reports as it goes (the CLI prints these; tests may watch them). */
export interface RolloutEvents {
  episode(trajectory: Trajectory, attempt: number): void;
  /** An episode attempt failed; `final` when it is out of tries. */
  episodeFailed(jobId: string, reason: string, final: boolean): void;
  /** An episode's policy version was retired by its server (the learner moved on); its group is stale. */
  episodeStale(jobId: string, reason: string): void;
  groupCompleted(summary: GroupSummary): void;
  /** `reason` is the failure of the episode that ran out of tries, when one did. */
  groupDropped(groupId: string, reason: string): void;
  /** A group abandoned because its policy version was retired: not a failure, and not trained on. */
  groupStale(groupId: string, reason: string): void;
  error(error: Error): void;
}

/**
 * One rollout worker: plays episodes from QUEUES.episodes, `concurrency` at a time, and
 * assembles groups whose episodes are all done (QUEUES.groups) into the trainer's queue.
 * Any number of workers, on any machines, share the queues.
 */
export class RolloutWorker {
  readonly episodes: Worker<unknown, EpisodeResult>;
  readonly groups: Worker<unknown, GroupSummary>;
  private readonly groupsQueue: Queue;
  private readonly episodesQueue: Queue;
  private readonly trainer: Queue;
  private isDraining = false;
  private readonly offError: () => void;
  private readonly offCapacity: () => void;

  constructor(options: RolloutWorkerOptions) {
    const { connection, metrics } = options;
    const base = { connection: connection.redis, prefix: connection.prefix };
    const events = options.events ?? {};
    const { watch } = connection;
    this.groupsQueue = watch.track(new Queue(QUEUES.groups, base));
    this.episodesQueue = watch.track(new Queue(QUEUES.episodes, base));
    this.trainer = watch.track(new Queue(QUEUES.trajectoryGroups, base));
    const name = options.name ?? `${process.env.HOSTNAME ?? 'worker'}:${process.pid}`;
    const locks = {
      lockDuration: options.lockMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      maxStalledCount: options.maxStalledCount ?? 2,
    };
    this.episodes = watch.track(
      new Worker(
        QUEUES.episodes,
        episodeProcessor({
          players: options.players,
          groups: this.groupsQueue,
          metrics,
          draining: () => this.isDraining,
          onEpisode: (t, attempt) => events.episode?.(t, attempt),
        }),
        { ...base, ...locks, name, concurrency: options.concurrency },
      ),
    );
    this.groups = watch.track(
      new Worker(
        QUEUES.groups,
        groupProcessor({
          trainer: this.trainer,
          metrics,
          keepSeconds: options.keepSeconds ?? DEFAULT_RETRY_POLICY.keepSeconds,
        }),
        {
          ...base,
          ...locks,
          name,
          concurrency: 4,
        },
      ),
    );
    this.offCapacity = followEnvCapacity(this.episodes, options.players.envs, options.concurrency);
    // Connection errors are the watch's (one line per outage); the others are reported here.
    this.offError = watch.onError((error) => events.error?.(error));
    this.episodes.on('failed', (job: Job | undefined, error: Error) => {
      if (!job) return;
      if (isRetiredVersionReason(error.message)) events.episodeStale?.(String(job.id), error.message);
      else events.episodeFailed?.(String(job.id), error.message, isFinal(job, error));
    });
    this.groups.on('completed', (_job, summary) => events.groupCompleted?.(summary));
    this.groups.on('failed', (job: Job | undefined, error: Error) => {
      if (!job || !isFinal(job, error)) return;
      void groupDropReason(error.message, this.episodesQueue)
        .catch(() => error.message)
        .then((reason) => {
          if (isRetiredVersionReason(reason)) {
            metrics?.groupsStale.inc();
            events.groupStale?.(String(job.id), reason);
          } else {
            metrics?.groupsDropped.inc();
            events.groupDropped?.(String(job.id), reason);
          }
        });
    });
  }

  async waitUntilReady(): Promise<void> {
    await Promise.all([this.episodes.waitUntilReady(), this.groups.waitUntilReady()]);
  }

  get draining(): boolean {
    return this.isDraining;
  }

  /**
   * Stops taking jobs and lets the episodes in flight finish; those still running after
   * `deadlineMs` are cancelled and handed back to the queue for another worker.
   */
  async drain(deadlineMs: number): Promise<void> {
    this.isDraining = true;
    const timer = setTimeout(() => this.episodes.cancelAllJobs('the worker is shutting down'), deadlineMs);
    try {
      await Promise.all([this.episodes.close(), this.groups.close()]);
    } finally {
      clearTimeout(timer);
      this.offError();
      this.offCapacity();
      await Promise.allSettled([this.groupsQueue.close(), this.episodesQueue.close(), this.trainer.close()]);
    }
  }

  /** Stops at once; running episodes stall and another worker re-runs them. */
  async close(): Promise<void> {
    this.isDraining = true;
    this.offError();
    this.offCapacity();
    await Promise.allSettled([
      this.episodes.close(true),
      this.groups.close(true),
      this.groupsQueue.close(),
      this.episodesQueue.close(),
      this.trainer.close(),
    ]);
  }
}

/** Whether this failure was the job's last: unrecoverable, or out of attempts. */
function isFinal(job: Job, error: Error): boolean {
  return error.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
}
