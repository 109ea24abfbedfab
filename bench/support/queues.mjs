// Redis housekeeping for benchmarks that run on their own queue prefix.
import { Redis } from 'ioredis';

/** The run's queue keys (its own prefix) are removed: a bench leaves Redis as it found it. */
export async function dropQueues(url, keyPrefix) {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${keyPrefix}:*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * Submits the jobs `jobFor(id, i)` for `ids` and resolves once every one of those groups has
 * finished (rejects when one is dropped); groups that finished before the tracker listened are
 * replayed from Redis.
 */
export async function playGroups(submitter, tracker, ids, jobFor) {
  const left = new Set(ids);
  const done = new Promise((resolve, reject) => {
    const off = tracker.onFinished((id, fate) => {
      if (fate === 'dropped' && left.has(id)) reject(new Error(`group ${id} was dropped`));
      if (left.delete(id) && left.size === 0) {
        off();
        resolve();
      }
    });
  });
  for (const [i, id] of ids.entries()) await submitter.submit(jobFor(id, i));
  await tracker.replay(ids);
  await done;
}
