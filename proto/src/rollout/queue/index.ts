// The rollout queues on BullMQ, shared by the producers (the trainer, `gauntlet-worker submit`)
// and the rollout workers: where they live, how a group becomes a flow, and how groups are watched.
export {
  DEFAULT_PREFIX,
  DEFAULT_REDIS_URL,
  queueConnection,
  redisOptions,
  type QueueConnection,
} from './connection.js';
export {
  isConnectionError,
  printableRedisUrl,
  RedisEvictionError,
  RedisUnreachableError,
  RedisWatch,
  type RedisState,
} from './redis-watch.js';
export { DEFAULT_RETRY_POLICY, groupFlow, type RetryPolicy } from './flow.js';
export { GroupTracker, type GroupFate } from './group-tracker.js';
export { GroupSubmitter, type SubmitResult } from './submitter.js';
