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
