import { readFile, readdir } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisConnection } from 'bullmq';
import { redisOptions } from '@gauntlet/proto/rollout/queue';
import { describe, expect, it } from 'vitest';
import { useOrStartRedis } from '../../src/cli/commands/learn/local-redis.js';
import { useTempDirs } from '../support/temp-dir.js';
import { runInProcess } from './run-cli.js';

// `gauntlet-trainer learn` starts the whole stack as processes (real Redis, env server with
// Chromium, trainer, worker) and must leave nothing behind: no process, no queue key, no temp folder.
const tempDir = useTempDirs();
const SHARED_REDIS = 'redis://127.0.0.1:6379';

/** Whether anything still listens at a URL's host and port. */
function listening(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function keysUnder(prefix: string): Promise<string[]> {
  const connection = new RedisConnection({ ...redisOptions(SHARED_REDIS), maxRetriesPerRequest: 1 }, { shared: false });
  try {
    const [, keys] = await (await connection.client).scan('0', { MATCH: `${prefix}:*`, COUNT: 100_000 });
    return keys;
  } finally {
    await connection.close();
  }
}

const learnTemps = async () => (await readdir(tmpdir())).filter((name) => name.startsWith('gauntlet-learn-'));

describe('gauntlet-trainer learn', () => {
  it('trains the shipped recipe for 2 updates on a shared Redis, prints the curves URL, and leaves no process or queue key behind', async () => {
    const out = join(await tempDir(), 'run');
    const result = await runInProcess([
      'learn',
      ...['--max-steps', '2', '--workers', '1', '--concurrency', '2'],
      ...['--redis', SHARED_REDIS, '--output-dir', out],
    ]);
    expect(result.code, result.stderr).toBe(0);
    const curves = /curves at (http:\/\/\S+\/curves)/.exec(result.stderr)?.[1];
    expect(curves, result.stderr).toBeDefined();
    expect(result.stderr).toMatch(/learn: trainer: update 2 \(v2\)/);
    expect(result.stdout).toMatch(
      /^learn: 2 updates \(last 2\); success at the last update: miniwob\.click-test \d\.\d\d/,
    );
    const rows = (await readFile(join(out, 'metrics.jsonl'), 'utf8')).trim().split('\n');
    expect(rows.map((row) => JSON.parse(row).step)).toEqual([1, 2]);
    // Everything it started is gone: the trainer's and the env server's ports are closed,
    // and the run's queue keys were removed from the shared Redis.
    const env = /env server (http:\/\/\S+)/.exec(result.stderr)![1]!;
    expect([await listening(curves!), await listening(env)]).toEqual([false, false]);
    const prefix = /queues (learn-\S+) on/.exec(result.stderr)![1]!;
    expect(await keysUnder(prefix)).toEqual([]);
    expect(result.stderr).toMatch(/every process it started has stopped$/);
  }, 300_000);

  it('with grpo --stay-up, the finished run keeps serving its curves until stopped, then everything stops', async () => {
    const out = join(await tempDir(), 'run');
    const stop = new AbortController();
    const served: { curves?: number; steps?: number[] } = {};
    let url: string | undefined;
    const result = await runInProcess(
      [
        'learn',
        ...['--max-steps', '1', '--workers', '1', '--concurrency', '2', '--grpo-arg=--stay-up'],
        ...['--redis', SHARED_REDIS, '--output-dir', out],
      ],
      {
        signal: stop.signal,
        onErr: (line) => {
          const at = /still serving the finished run's curves at (http:\/\/\S+\/curves)/.exec(line)?.[1];
          if (!at) return;
          url = at;
          // The run is over (its final output written); its curves answer until the stop.
          void (async () => {
            try {
              served.curves = (await fetch(at)).status;
              const json = (await (await fetch(`${at}.json`)).json()) as { updates?: { step: number }[] };
              served.steps = (json.updates ?? []).map((update) => update.step);
            } finally {
              stop.abort();
            }
          })();
        },
      },
    );
    expect(url, result.stderr).toBeDefined();
    expect(served).toEqual({ curves: 200, steps: [1] });
    expect(result.stderr).toMatch(/trainer: grpo: finished version 1/);
    expect(await listening(url!)).toBe(false);
    expect(result.stderr).toMatch(/every process it started has stopped$/);
  }, 300_000);

  it('with nothing at --redis, starts a private redis-server that keeps nothing on disk and stops with the run', async () => {
    const lines: string[] = [];
    const before = await learnTemps();
    const redis = await useOrStartRedis('redis://127.0.0.1:1', (line) => lines.push(line));
    expect(redis.owned).toBe(true);
    expect(lines).toEqual([expect.stringMatching(/^no Redis at redis:\/\/127\.0\.0\.1:1: starting redis-server on /)]);
    expect(await listening(redis.url.replace('redis:', 'http:'))).toBe(true);
    expect((await learnTemps()).length).toBe(before.length + 1);
    await redis.stop();
    expect(await listening(redis.url.replace('redis:', 'http:'))).toBe(false);
    expect(await learnTemps()).toEqual(before);
    // A Redis that answers is used as it is, and stop() leaves it running.
    const shared = await useOrStartRedis(SHARED_REDIS, (line) => lines.push(line));
    expect([shared.owned, shared.url, lines.length]).toEqual([false, SHARED_REDIS, 1]);
  });
});
