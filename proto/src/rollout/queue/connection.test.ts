import { describe, expect, it } from 'vitest';
import { queueConnection, redisOptions } from './connection.js';

describe('redisOptions', () => {
  it('reads host, port, database, credentials and TLS from the URL, and waits out Redis restarts', () => {
    expect(redisOptions('redis://127.0.0.1:6380/2')).toMatchObject({
      host: '127.0.0.1',
      port: 6380,
      db: 2,
      maxRetriesPerRequest: null,
    });
    expect(redisOptions('rediss://user:p%40ss@queue.internal')).toMatchObject({
      host: 'queue.internal',
      port: 6379,
      username: 'user',
      password: 'p@ss',
      tls: {},
    });
    expect(redisOptions('redis://localhost').db).toBeUndefined();
  });

  it('reconnects with exponential backoff, capped at 2 s, and never gives up', () => {
    const { retryStrategy } = redisOptions('redis://127.0.0.1:6379');
    const delays = [1, 2, 3, 4, 5, 6, 100, 10_000].map((times) => retryStrategy!(times));
    expect(delays).toEqual([100, 200, 400, 800, 1_600, 2_000, 2_000, 2_000]);
  });

  it('refuses what is not a Redis URL, saying what one looks like', () => {
    expect(() => redisOptions('http://127.0.0.1:6379')).toThrow(/must start with redis:\/\/ or rediss:\/\//);
    expect(() => redisOptions('not a url')).toThrow(/is not a URL \(e\.g\. redis:\/\/127\.0\.0\.1:6379\)/);
    expect(() => redisOptions('redis://h/abc')).toThrow(/database number/);
  });

  it('keeps ":" out of the prefix (BullMQ\'s key separator)', () => {
    expect(queueConnection('redis://h', 'test-1').prefix).toBe('test-1');
    expect(() => queueConnection('redis://h', 'a:b')).toThrow(/no ":"/);
  });
});
