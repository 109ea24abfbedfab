import { systemPromptFor } from '@gauntlet/proto/agent';
import { PolicyClient } from '@gauntlet/proto/policy-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EnvPool } from '../../src/env/env-pool.js';
import { WorkerMetrics } from '../../src/metrics/metrics.js';
import { PolicyPool } from '../../src/policies/policy-pool.js';
import { GroupSubmitter } from '@gauntlet/proto/rollout/queue';
import { RolloutWorker, type RolloutEvents } from '../../src/queue/rollout-worker.js';
import { startEnvServer, type EnvServerProcess } from '../support/env-server.js';
import { FaultProxy, startPolicyServer, type PolicyServerProcess } from '../support/policy-server.js';
import { freshConnection, removeQueues } from '../support/redis.js';
import { groupEvents, groupInput, signalled, trainerGroups } from '../support/rollout.js';

// The worker against a real `gauntlet-trainer serve` (tiny model) and a real env server, both
// started as processes; real Redis with a fresh prefix per test.
let env: EnvServerProcess;
let serve: PolicyServerProcess;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  [env, serve] = await Promise.all([startEnvServer(), startPolicyServer()]);
}, 150_000);
afterAll(async () => {
  await Promise.all([env?.stop(), serve?.stop()]);
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

const TINY = { model: 'tiny', adapter: null, version: 7 };
const SETTINGS = { max_turns: 2, deadline_ms: 120_000, sampling: { max_tokens: 8, seed: 21 } };

async function rig(policyUrl: string, events: Partial<RolloutEvents>) {
  const connection = freshConnection();
  const metrics = new WorkerMetrics(false);
  const envs = new EnvPool([env.grpc], { metrics });
  await envs.start();
  const worker = new RolloutWorker({
    connection,
    players: { envs, policies: new PolicyPool([policyUrl]) },
    concurrency: 4,
    metrics,
    events,
  });
  const submitter = new GroupSubmitter(connection, { attempts: 3, backoffMs: 200, keepSeconds: 3600 });
  cleanups.push(
    () => removeQueues(connection),
    () => envs.close(),
    () => worker.drain(0),
    () => submitter.close(),
  );
  await worker.waitUntilReady();
  return { connection, metrics, submitter };
}

describe('episodes sampled from a policy server', () => {
  it('a group of 8 on click-test: token-exact turns, each recording the model the server reported', async () => {
    const done = signalled();
    const r = await rig(serve.url, groupEvents(done));
    await r.submitter.submit(groupInput('gp8', 8, { policy: TINY, settings: SETTINGS }));
    await done.promise;
    const [handed] = await trainerGroups(r.connection);
    const trajectories = handed!.group.trajectories;
    expect(trajectories).toHaveLength(8);
    const client = new PolicyClient(serve.url);
    for (const t of trajectories) {
      expect(t.outcome).not.toBe('infra_error');
      expect(t.prompt_ids.length).toBeGreaterThan(0);
      // Turn 0's prompt is exactly the server's own tokenisation of the system prompt and first observation.
      const first = await client.tokenize({
        model: 'tiny',
        messages: [
          { role: 'system', content: systemPromptFor('click-test') },
          { role: 'user', content: t.turns[0]!.observation },
        ],
        add_generation_prompt: true,
      });
      expect(first.tokens).toEqual(t.prompt_ids);
      t.turns.forEach((turn, k) => {
        expect(turn.completion_ids.length).toBeGreaterThan(0);
        expect(turn.logprobs).toHaveLength(turn.completion_ids.length);
        expect(turn.policy).toEqual({ model: 'tiny', adapter: null, version: 7 });
        // Every turn but the last is followed by env tokens (turn close, next observation, generation prompt).
        if (k < t.turns.length - 1) expect(turn.env_ids.length).toBeGreaterThan(0);
      });
      for (const turn of t.turns)
        expect((await client.detokenize({ tokens: turn.completion_ids })).prompt).toBe(turn.action_text);
    }
  }, 150_000);

  it('policy 503s are retried: within the client first, then as a retried episode; never a reward', async () => {
    const proxy = await new FaultProxy(serve.url).listen();
    cleanups.push(() => proxy.close());
    const done = signalled();
    const failures: string[] = [];
    const r = await rig(proxy.url, { ...groupEvents(done), episodeFailed: (_id, reason) => failures.push(reason) });
    // More 503s in a row than the client's own 5 tries: the first attempt ends as infra_error.
    proxy.failNext('/v1/completions', 6);
    await r.submitter.submit(groupInput('gp503', 1, { policy: TINY, settings: SETTINGS }));
    await done.promise;
    expect(proxy.faulted).toBe(6);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/infrastructure error .* attempt 1: PolicyUnavailableError: .*503/);
    const [handed] = await trainerGroups(r.connection);
    expect(handed!.group.trajectories.map((t) => t.outcome)).not.toContain('infra_error');
    expect(handed!.group.trajectories[0]!.turns.length).toBeGreaterThan(0);
  }, 150_000);

  it("a reply longer than the model's context fails the job at once (a bad job, never a scored timeout)", async () => {
    const done = signalled();
    const failures: string[] = [];
    const r = await rig(serve.url, {
      ...groupEvents(done),
      episodeFailed: (_id, reason, final) => failures.push(`${final}: ${reason}`),
    });
    const settings = { ...SETTINGS, sampling: { max_tokens: 32_768, seed: 21 } };
    await r.submitter.submit(groupInput('gpctx', 1, { policy: TINY, settings }));
    await expect(done.promise).rejects.toThrow(/dropped/);
    expect(failures).toEqual([
      expect.stringMatching(/^true: .*sampling\.max_tokens 32768 must be below the model's context of \d+ tokens/),
    ]);
    expect(await trainerGroups(r.connection)).toEqual([]);
  }, 150_000);
});
