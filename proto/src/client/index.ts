export { createEnvClient } from './connect.js';
export { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
export type { ActionInput, CallOptions, EnvClient, EnvClientOptions, ResetInput, TransportName } from './types.js';
export { fetchTaskNames, type TaskListOptions } from './task-list.js';
