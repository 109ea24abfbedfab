import type { Trajectory } from '@gauntlet/proto/rollout';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const WAIT_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 1800];

/** Prometheus figures for one worker (own registry, so tests and benches can hold several). */
export class WorkerMetrics {
  readonly registry = new Registry();
  private readonly r = [this.registry];
  readonly episodes = new Counter({
    name: 'gauntlet_worker_episodes_total',
    help: 'Episodes played, by outcome (infra_error ones are retried)',
    labelNames: ['outcome'],
    registers: this.r,
  });
  readonly episodesInFlight = new Gauge({
    name: 'gauntlet_worker_episodes_in_flight',
    help: 'Episodes being played now',
    registers: this.r,
  });
  readonly envStepSeconds = new Histogram({
    name: 'gauntlet_worker_env_step_seconds',
    help: 'Env step call latency as the worker saw it',
    buckets: LATENCY_BUCKETS,
    registers: this.r,
  });
  readonly policySeconds = new Histogram({
    name: 'gauntlet_worker_policy_seconds',
    help: 'Policy latency per turn',
    buckets: LATENCY_BUCKETS,
    registers: this.r,
  });
  readonly episodeSeconds = new Histogram({
    name: 'gauntlet_worker_episode_seconds',
    help: 'Episode wall time',
    buckets: WAIT_BUCKETS,
    registers: this.r,
  });
  readonly queueWaitSeconds = new Histogram({
    name: 'gauntlet_worker_queue_wait_seconds',
    help: 'Time from enqueue to the first attempt of an episode',
    buckets: WAIT_BUCKETS,
    registers: this.r,
  });
  readonly retries = new Counter({
    name: 'gauntlet_worker_episode_retries_total',
    help: 'Episode attempts beyond the first (infra errors, stalled workers)',
    registers: this.r,
  });
  readonly handedBack = new Counter({
    name: 'gauntlet_worker_episodes_handed_back_total',
    help: 'Episodes given back to the queue unplayed or unfinished, without spending a try: the worker drained, or no env session came free within --env-wait-ms',
    labelNames: ['reason'],
    registers: this.r,
  });
  readonly groupsCompleted = new Counter({
    name: 'gauntlet_worker_groups_completed_total',
    help: 'Groups assembled and handed to the trainer queue',
    registers: this.r,
  });
  readonly groupsStale = new Counter({
    name: 'gauntlet_worker_groups_stale_total',
    help: 'Groups abandoned because their policy version was retired (the learner moved on); never failures',
    registers: this.r,
  });
  readonly groupsDropped = new Counter({
    name: 'gauntlet_worker_groups_dropped_total',
    help: 'Groups dropped whole after an episode ran out of tries or was unplayable',
    registers: this.r,
  });
  readonly envFailovers = new Counter({
    name: 'gauntlet_worker_env_failovers_total',
    help: 'Sessions moved to another env server, by reason (capacity: this one was full, the next was tried)',
    labelNames: ['reason'],
    registers: this.r,
  });
  readonly envWaits = new Counter({
    name: 'gauntlet_worker_env_waits_total',
    help: 'Episodes that waited for an env session while every server was full (back-pressure, not a failure)',
    registers: this.r,
  });
  readonly envWaiting = new Gauge({
    name: 'gauntlet_worker_env_waiting',
    help: 'Episodes waiting for an env session now (every server full): a signal to add env servers',
    registers: this.r,
  });
  readonly envWaitSeconds = new Histogram({
    name: 'gauntlet_worker_env_wait_seconds',
    help: 'How long those episodes waited for their env session',
    buckets: WAIT_BUCKETS,
    registers: this.r,
  });
  readonly envServersHealthy = new Gauge({
    name: 'gauntlet_worker_env_servers_healthy',
    help: 'Env servers passing their health check',
    registers: this.r,
  });

  constructor(defaults = true) {
    if (defaults) collectDefaultMetrics({ register: this.registry, prefix: 'gauntlet_worker_' });
  }

  /** Counts a finished episode and its turns' latencies. */
  episode(trajectory: Trajectory): void {
    this.episodes.inc({ outcome: trajectory.outcome });
    this.episodeSeconds.observe(trajectory.wall_ms / 1000);
    for (const turn of trajectory.turns) {
      this.envStepSeconds.observe(turn.step_ms / 1000);
      this.policySeconds.observe(turn.policy_ms / 1000);
    }
  }
}
