import { ValidationError } from '../../errors.js';
import type { RedisOptions } from 'bullmq';
import { printableRedisUrl, RedisWatch } from './redis-watch.js';

/** Where the queues live: one Redis and a key prefix (queues of one deployment share it). */
export interface QueueConnection {
  redis: RedisOptions;
  /** BullMQ key prefix: `<prefix>:<queue>:…`. Tests use a fresh `test-<uuid>` one each. */
  prefix: string;
  /** Whether that Redis is reachable: BullMQ clients' errors go there (track), CLIs wait on it at start. */
  watch: RedisWatch;
}

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
export const DEFAULT_PREFIX = 'gauntlet';

/**
 * Redis options from a `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS) URL.
 * Workers block on Redis and must ride out a Redis restart, so commands wait for the connection
 * to come back instead of failing after a few tries (BullMQ needs maxRetriesPerRequest: null).
 */
export function redisOptions(url: string): RedisOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ValidationError(`Redis URL ${JSON.stringify(url)} is not a URL (e.g. ${DEFAULT_REDIS_URL})`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    throw new ValidationError(`Redis URL ${JSON.stringify(url)} must start with redis:// or rediss://`);
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db))
    throw new ValidationError(`Redis URL ${JSON.stringify(url)}: the path must be a database number (e.g. /0)`);
  return {
    host: parsed.hostname || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : 6379,
    ...(db ? { db: Number(db) } : {}),
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
    // Reconnect quickly at first, backing off exponentially to every 2 s, forever: a worker outlives
    // a Redis restart. The tries are silent: a RedisWatch reports the outage once (track).
    retryStrategy: (times: number) => Math.min(2_000, 50 * 2 ** Math.min(times, 6)),
  };
}

export function queueConnection(url = DEFAULT_REDIS_URL, prefix = DEFAULT_PREFIX): QueueConnection {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(prefix))
    throw new ValidationError(
      `queue prefix ${JSON.stringify(prefix)} must be letters, digits, "_", "-" or "." (no ":")`,
    );
  const redis = redisOptions(url);
  return { redis, prefix, watch: new RedisWatch(printableRedisUrl(url), redis) };
}
