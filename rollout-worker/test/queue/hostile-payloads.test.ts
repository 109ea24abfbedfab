import { createServer, type Server } from 'node:net';
import { JOB_NAMES, QUEUES, episodeJobs, GroupJob, type EpisodeJob } from '@gauntlet/proto/rollout';
import { Queue, QueueEvents } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EnvPool } from '../../src/env/env-pool.js';
import { PolicyPool } from '../../src/policies/policy-pool.js';
import { RolloutWorker } from '../../src/queue/rollout-worker.js';
import { startEnvServer, type EnvServerProcess } from '../support/env-server.js';
import { freshConnection, freePort, removeQueues } from '../support/redis.js';
import { groupInput } from '../support/rollout.js';

// Payloads as whoever can write to Redis would craft them, played by a real worker (real Redis
// with a fresh prefix, a real env server): each fails at once with its reason and reaches nothing.
let env: EnvServerProcess;
/** Anything listening where a hostile job points: it must never be called. */
let bait: Server;
let baitPort: number;
const baitHits: string[] = [];
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  env = await startEnvServer();
  bait = createServer((socket) => {
    socket.once('data', (chunk) => baitHits.push(chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.end();
  });
  await new Promise<void>((resolve) => bait.listen(0, '127.0.0.1', resolve));
  baitPort = (bait.address() as { port: number }).port;
}, 150_000);
afterAll(async () => {
  await Promise.all([env?.stop(), new Promise((resolve) => bait?.close(resolve))]);
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A worker whose only policy server is `own` (never reached by these jobs) with an API key to leak. */
async function rig() {
  const connection = freshConnection();
  const envs = new EnvPool([env.grpc], { probeIntervalMs: 60_000 });
  await envs.start();
  const own = `own=http://127.0.0.1:${await freePort()}/v1`;
  const policies = new PolicyPool([own], { apiKey: 'worker-secret', timeoutMs: 2_000 });
  const worker = new RolloutWorker({ connection, players: { envs, policies }, concurrency: 2 });
  const base = { connection: connection.redis, prefix: connection.prefix };
  const episodes = new Queue(QUEUES.episodes, base);
  const events = new QueueEvents(QUEUES.episodes, base);
  cleanups.push(
    () => removeQueues(connection),
    () => envs.close(),
    () => worker.drain(0),
    () => Promise.all([episodes.close(), events.close()]),
  );
  await Promise.all([worker.waitUntilReady(), events.waitUntilReady()]);
  /** Adds `data` as an episode job with tries to spare; resolves with its failure reason and tries used. */
  const fails = async (data: unknown) => {
    const job = await episodes.add(JOB_NAMES.episode, data, { attempts: 5, backoff: { type: 'fixed', delay: 10 } });
    const reason = await job.waitUntilFinished(events, 60_000).then(
      () => 'completed',
      (error: Error) => error.message,
    );
    return { reason, attempts: (await episodes.getJob(job.id!))!.attemptsMade };
  };
  return { fails };
}

function episode(id: string, settings: Record<string, unknown>): Record<string, unknown> {
  const valid: EpisodeJob = episodeJobs(GroupJob.parse(groupInput(id, 1)))[0]!;
  return { ...valid, settings: { ...valid.settings, ...settings } };
}

describe('hostile episode payloads', () => {
  it('a job cannot send the worker (or its API key) to a URL of its own: only the servers the worker was given', async () => {
    const r = await rig();
    const bait = `http://127.0.0.1:${baitPort}/v1`;
    const cases: [Record<string, unknown>, RegExp][] = [
      // The old shape: a list of URLs the worker would have sampled from with its key.
      [{ policy_urls: [bait] }, /^bad episode job \S+: settings: .*policy_urls/],
      [{ policy_servers: [bait] }, /^bad episode job \S+: settings\.policy_servers\.0: .*never a URL/],
      [
        { policy_servers: [`127.0.0.1:${baitPort}`] },
        /cannot be played: settings\.policy_servers names "127\.0\.0\.1:\d+", which is not one of this worker's policy servers \(it has 0: own\)/,
      ],
      [{ policy_servers: [1] }, /names 1, which is not one of this worker's policy servers/],
      // Env servers are the operator's too: a job has no field to name one.
      [{ env_urls: [`grpc://127.0.0.1:${baitPort}`] }, /^bad episode job \S+: settings: .*env_urls/],
    ];
    for (const [i, [settings, reason]] of cases.entries()) {
      const result = await r.fails(episode(`url${i}`, settings));
      expect(result.reason, JSON.stringify(settings)).toMatch(reason);
      expect(result.attempts).toBe(1);
    }
    expect(baitHits).toEqual([]);
  }, 150_000);

  it('task options nested 3000 deep or too large, and replies longer than the context, fail at once as bad payloads', async () => {
    const r = await rig();
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 3000; i++) deep = { d: deep };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ reset_options: deep }, /^bad episode job \S+: settings\.reset_options: nests more than 16 levels deep/],
      [
        { reset_options: { blob: 'x'.repeat(100_000) } },
        /^bad episode job \S+: settings\.reset_options: is \d+ characters as JSON; at most 65536/,
      ],
      [
        { context_tokens: 256, sampling: { temperature: 1, top_p: 1, top_k: -1, max_tokens: 256, seed: 1 } },
        /^bad episode job \S+: settings\.sampling\.max_tokens: must be below context_tokens/,
      ],
    ];
    for (const [i, [settings, reason]] of cases.entries()) {
      const result = await r.fails(episode(`opt${i}`, settings));
      expect(result.reason, Object.keys(settings).join()).toMatch(reason);
      expect(result.attempts).toBe(1);
    }
    expect(baitHits).toEqual([]);
  }, 150_000);
});
