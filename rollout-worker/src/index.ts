export { main } from './cli/main.js';
export { EnvPool, type EnvPoolOptions } from './env/env-pool.js';
export type { EnvServer } from './env/env-lease.js';
export { EnvLease } from './env/env-lease.js';
export { probeHealth, type HealthProbe } from './env/health.js';
export { evaluate, type EvalPlan, type EvalReport, type TaskScore } from './episode/evaluate.js';
export { playEpisode, type EpisodeSpec, type Players, type PolicySource } from './episode/play.js';
export { WorkerMetrics } from './metrics/metrics.js';
export { serveMetrics, type MetricsServer } from './metrics/server.js';
export { PolicyPool, RANDOM_POLICY, type EpisodePolicyChoice, type PolicyPoolOptions } from './policies/policy-pool.js';
export { randomPolicy } from './policies/random-policy.js';
export { RolloutWorker, type RolloutEvents, type RolloutWorkerOptions } from './queue/rollout-worker.js';
export { rolloutStatus, type RolloutStatus } from './queue/status.js';
// The queue plumbing producers share lives in proto; re-exported for existing callers.
export {
  DEFAULT_PREFIX,
  DEFAULT_REDIS_URL,
  DEFAULT_RETRY_POLICY,
  GroupSubmitter,
  GroupTracker,
  groupFlow,
  queueConnection,
  redisOptions,
  type GroupFate,
  type QueueConnection,
  type RetryPolicy,
  type SubmitResult,
} from '@gauntlet/proto/rollout/queue';
