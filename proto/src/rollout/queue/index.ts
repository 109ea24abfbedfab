// The rollout queues on BullMQ, both sides of their contract: where they live, how a group becomes
// a flow and is watched or removed (the producers: the trainer, `gauntlet-worker submit`), and how
// a job taken off a queue is checked (the consumers: the rollout workers, the trainer).
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
export { groupDropReason } from './drop-reason.js';
export { GroupSubmitter, type SubmitResult } from './submitter.js';
export {
  BadJobError,
  EPISODE_JOBS,
  GROUP_JOBS,
  parsePayload,
  readJob,
  TRAJECTORY_GROUP_JOBS,
  type JobContract,
  type ReceivedJob,
} from './consume.js';
