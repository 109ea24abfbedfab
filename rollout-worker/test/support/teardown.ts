import { rmSync } from 'node:fs';
import type { QueueConnection } from '@gauntlet/proto/rollout/queue';
import type { Started } from './process.js';
import { removeQueues } from './redis.js';

/** A suite's afterAll: stops what it started (the last first), removes its queues, then its folders. */
export async function tearDown(started: Started[], connection: QueueConnection, ...dirs: string[]): Promise<void> {
  await Promise.allSettled([...started].reverse().map((p) => p.stop()));
  await removeQueues(connection);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
