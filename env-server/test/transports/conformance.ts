import { describe, expect, it, vi } from 'vitest';
import {
  CapacityError,
  ExecutionError,
  InfraError,
  PayloadTooLargeError,
  SessionError,
  UnauthorizedError,
  UnknownTaskError,
  ValidationError,
} from '@gauntlet/proto';
import type { TransportName } from '@gauntlet/proto/client';
import { startTestServer } from '../support/server.js';
import { clickMeBid, solveWithOracle, useServer } from './harness.js';

/**
 * The one suite every EnvClient transport must pass, against a real env server and Chromium.
 * Each transport's test file calls this with its name; nothing here knows which one it runs.
 */
export function describeEnvClientConformance(transport: TransportName): void {
  const env = useServer(transport);
  const serverSession = (id: string | undefined) => env.server.service.sessions.find(id ?? '')!;

  describe(`EnvClient over ${transport}: episodes`, () => {
    it('solves every starter task with its oracle, and state follows the episode', async () => {
      const client = env.connect();
      const starters = env.server.service.registry.list().filter((task) => task.benchmark === 'miniwob');
      expect(starters.length).toBeGreaterThanOrEqual(5);
      for (const task of starters) {
        const { result, steps } = await solveWithOracle(client, task, 3);
        expect(result, task.name).toMatchObject({ reward: 1, done: true });
        expect(await client.state()).toMatchObject({
          episode_id: `${task.name}-3`,
          step_count: steps,
          cum_reward: 1,
          session_id: client.sessionId,
        });
      }
      expect(client.transport).toBe(transport);
    });

    it("observation.oracle_action: the task oracle's next action rides in the reply, and playing it solves the task", async () => {
      const client = env.connect();
      for (const task of ['enter-text', 'gauntlet:click_sequence']) {
        let result = await client.reset({
          task_name: task,
          seed: 5,
          observation: { oracle_action: true, axtree: false },
        });
        expect(result.observation.axtree_txt, 'the AXTree the agent did not ask for stays home').toBe('');
        let steps = 0;
        while (!result.done && steps++ < 40) {
          const action = result.metadata.browsergym_info['oracle_action'];
          expect(typeof action, `${task} step ${steps}`).toBe('string');
          result = await client.step(action as string);
        }
        expect(result, task).toMatchObject({ done: true, reward: expect.any(Number) });
        expect(result.metadata.browsergym_info['raw_reward'], task).toBe(1);
        expect(result.metadata.browsergym_info['oracle_action'], 'no hint once the episode is over').toBeNull();
      }
      const plain = await client.reset({ task_name: 'click-test', seed: 1 });
      expect(plain.metadata.browsergym_info).not.toHaveProperty('oracle_action');
    });

    it('concurrent clients each get their own session', async () => {
      const clients = [env.connect(), env.connect(), env.connect()];
      const rewards = await Promise.all(
        clients.map(async (client, i) => {
          const reset = await client.reset({ task_name: 'click-test', seed: 10 + i });
          return (await client.step(`click('${clickMeBid(reset)}')`)).reward;
        }),
      );
      expect(rewards).toEqual([1, 1, 1]);
      expect(new Set(clients.map((c) => c.sessionId)).size).toBe(3);
      expect(env.server.service.sessions.size).toBe(3);
    });
  });

  describe(`EnvClient over ${transport}: typed errors`, () => {
    it('bad input is a ValidationError, from the client and from the server, and the session goes on', async () => {
      const client = env.connect();
      await expect(client.reset({ seed: -1 })).rejects.toBeInstanceOf(ValidationError);
      const unknownTask = await client.reset({ task_name: 'no-such-task' }).catch((error: unknown) => error);
      expect(unknownTask).toBeInstanceOf(UnknownTaskError);
      expect(unknownTask).toBeInstanceOf(ValidationError);
      expect((unknownTask as ValidationError).issues[0]?.loc).toEqual(['body', 'task_name']);
      expect((await client.reset({ task_name: 'click-test', seed: 1 })).done).toBe(false);
    });

    it('steps before reset or after the end are an ExecutionError', async () => {
      const client = env.connect();
      await expect(client.step('noop(0)')).rejects.toBeInstanceOf(ExecutionError);
      const reset = await client.reset({ task_name: 'click-test', seed: 2 });
      await client.step(`click('${clickMeBid(reset)}')`);
      await expect(client.step('noop(0)')).rejects.toThrow(/episode is over/);
    });

    it('a full server answers CapacityError with the counts (to open as to any call); a freed slot can be taken', async () => {
      const holders = [env.connect(), env.connect(), env.connect()];
      for (const holder of holders) await holder.open();
      const held = holders[0]!.sessionId;
      await holders[0]!.open();
      expect(holders[0]!.sessionId).toBe(held);
      const late = env.connect();
      expect(await late.state().catch((error: unknown) => error)).toBeInstanceOf(CapacityError);
      const refused = await late.open().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(CapacityError);
      expect((refused as CapacityError).details).toEqual({ active_sessions: 3, max_sessions: 3 });
      await holders[0]!.close();
      await vi.waitFor(() => expect(env.server.service.sessions.size).toBe(2));
      expect((await late.reset({ task_name: 'click-test', seed: 1 })).done).toBe(false);
    });

    it('a request over the size limit is a PayloadTooLargeError and other sessions do not notice', async () => {
      const bystander = env.connect();
      const victim = env.connect();
      await bystander.reset({ task_name: 'click-test', seed: 4 });
      await victim.reset({ task_name: 'click-test', seed: 4 });
      await expect(victim.step(`send_msg_to_user('${'x'.repeat(100_000)}')`)).rejects.toBeInstanceOf(
        PayloadTooLargeError,
      );
      expect((await bystander.step('noop(0)')).observation.last_action_error).toBe(false);
      expect((await victim.reset({ task_name: 'click-test', seed: 5 })).done).toBe(false);
    });

    it('a browser crash is an InfraError mid-episode; reset recovers on the relaunched browser', async () => {
      const client = env.connect();
      await client.reset({ task_name: 'click-test', seed: 6 });
      const { pool } = env.server.service;
      const lost = new Promise((resolve) => pool.once('browser-lost', resolve));
      process.kill(pool.browserPid()!, 'SIGKILL');
      await lost;
      await expect(client.step('noop(0)')).rejects.toBeInstanceOf(InfraError);
      const again = await client.reset({ task_name: 'click-test', seed: 6 });
      expect((await client.step(`click('${clickMeBid(again)}')`)).reward).toBe(1);
    });

    it('a session the server reaped is a SessionError; reset opens a new session', async () => {
      const client = env.connect();
      await client.reset({ task_name: 'click-test', seed: 7 });
      const first = client.sessionId;
      serverSession(first).lastActivity = 0;
      await env.server.service.sessions.reapIdle();
      await expect(client.step('noop(0)')).rejects.toBeInstanceOf(SessionError);
      await expect(client.state()).rejects.toBeInstanceOf(SessionError);
      expect((await client.reset({ task_name: 'click-test', seed: 7 })).done).toBe(false);
      expect(client.sessionId).toBeDefined();
      expect(client.sessionId).not.toBe(first);
    });

    it('a wrong or missing token is an UnauthorizedError; the right one gets in', async () => {
      const secured = await startTestServer({ bearerToken: 's3cret', warmContexts: 0 }, { waitForBrowser: false });
      try {
        await expect(env.connect({}, secured).reset({})).rejects.toBeInstanceOf(UnauthorizedError);
        await expect(env.connect({ token: 'wrong' }, secured).reset({})).rejects.toBeInstanceOf(UnauthorizedError);
        const allowed = env.connect({ token: 's3cret' }, secured);
        expect((await allowed.reset({ task_name: 'click-test', seed: 1 })).done).toBe(false);
        await allowed.close();
      } finally {
        await secured.close();
      }
    });
  });

  describe(`EnvClient over ${transport}: deadlines and cancellation`, () => {
    it("a step past its deadline is the policy's timeout: truncated, answered before the client gives up", async () => {
      const client = env.connect();
      await client.reset({ task_name: 'click-test', seed: 8 });
      const started = Date.now();
      // Before: DeadlineExceededError, which a rollout counts as an infra error and drops unscored.
      const overran = await client.step('noop(5000)', { timeoutMs: 1_000 });
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(overran).toMatchObject({ done: true, reward: 0 });
      expect(overran.metadata.browsergym_info).toMatchObject({ truncated: true, timed_out: true });
      expect(overran.observation.error).toMatch(/^TimeoutError: /);
      expect((await client.state()).step_count).toBeGreaterThanOrEqual(1);
      // The session goes on with the next episode.
      expect((await client.reset({ task_name: 'click-test', seed: 8 })).done).toBe(false);
    });

    it('an aborted step rejects with the abort reason at once, and the session goes on', async () => {
      const client = env.connect();
      await client.reset({ task_name: 'click-test', seed: 9 });
      const controller = new AbortController();
      // Long enough that the abort lands mid-step even on a loaded machine.
      const step = client.step('noop(2500)', { signal: controller.signal });
      await vi.waitFor(() => expect(serverSession(client.sessionId).busy).toBe(true), { timeout: 2_000 });
      controller.abort(new Error('agent gave up'));
      await expect(step).rejects.toThrow('agent gave up');
      const state = await client.state();
      expect(state.step_count).toBe(1);
    });
  });

  describe(`EnvClient over ${transport}: server restart`, () => {
    it('a restart mid-session is a SessionError; the client recovers with a new session', async () => {
      const client = env.connect();
      const resetOnly = env.connect();
      await client.reset({ task_name: 'click-test', seed: 11 });
      await resetOnly.reset({ task_name: 'click-test', seed: 12 });
      const before = client.sessionId;
      await env.restart();
      await expect(client.step('noop(0)')).rejects.toBeInstanceOf(SessionError);
      const fresh = await client.reset({ task_name: 'click-test', seed: 11 });
      expect((await client.step(`click('${clickMeBid(fresh)}')`)).reward).toBe(1);
      expect(client.sessionId).not.toBe(before);
      // A reset is enough to recover, even before any call has noticed the loss.
      expect((await resetOnly.reset({ task_name: 'click-test', seed: 12 })).done).toBe(false);
    });
  });
}
