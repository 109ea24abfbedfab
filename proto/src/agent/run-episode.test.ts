import { describe, expect, it } from 'vitest';
import { FakeEnv, stepResult } from '../../test/fake-env.js';
import { InfraError, ValidationError } from '../errors.js';
import { PolicyUnavailableError } from '../policy-server/errors.js';
import { PolicyGaveUpError } from '../rollout/outcome.js';
import { Trajectory } from '../rollout/trajectory.js';
import type { EpisodePolicy } from './policy.js';
import { runEpisode } from './run-episode.js';
import { scriptedPolicy } from './scripted-policy.js';
import { BROWSER_SYSTEM_PROMPT } from './system-prompt.js';

/** A policy that replies with text (parsed into actions), like an LLM without tokens. */
const says = (...replies: string[]): EpisodePolicy => ({
  start: async () => ({
    promptIds: [],
    act: async ({ index }) => ({
      text: replies[index] ?? 'noop()',
      completionIds: [],
      logprobs: [],
      trimmedExchanges: 0,
      policy: { model: 'script', adapter: null, version: null },
    }),
    observe: async () => [],
  }),
});
const solvedAt = (step: number) => (_action: string, n: number) =>
  n >= step
    ? stepResult({ reward: 1, done: true, info: { task_info: { solved: 1 } } })
    : stepResult({ info: { task_info: { at: n } } });
const never = new Promise<never>(() => undefined);

describe('runEpisode', () => {
  it('plays reset → observe → act → parse → step until done and records every turn', async () => {
    const env = new FakeEnv(solvedAt(2));
    const seen: string[] = [];
    const trajectory = await runEpisode(env, says('Thought: wait.\nAction: noop(10)', "```\nclick('5')\n```"), {
      task: 'click-test',
      seed: 3,
      episodeId: 'e1',
      groupId: 'g',
      onResult: (r) => seen.push(String(r.done)),
    });
    expect(Trajectory.parse(trajectory)).toEqual(trajectory);
    expect(env.resets).toEqual([
      {
        task_name: 'click-test',
        seed: 3,
        episode_id: 'e1',
        options: {},
        observation: { axtree: true, pruned_html: false, extra_properties: false, screenshot: 'none' },
      },
    ]);
    expect(env.actions).toEqual(['noop(10)', "click('5')"]);
    expect(seen).toEqual(['false', 'false', 'true']);
    expect(trajectory).toMatchObject({
      episode_id: 'e1',
      group_id: 'g',
      task: 'click-test',
      seed: 3,
      outcome: 'success',
      reward: 1,
      error: null,
      prompt_ids: [],
      final_task_info: { solved: 1 },
    });
    const [first, second] = trajectory.turns;
    expect(first).toMatchObject({
      index: 0,
      action_text: 'Thought: wait.\nAction: noop(10)',
      action: 'noop(10)',
      action_fallback: false,
      reward: 0,
      done: false,
      env_ms: 6,
      task_info: {},
      policy: { model: 'script', adapter: null, version: null },
    });
    expect(second).toMatchObject({ index: 1, action: "click('5')", reward: 1, done: true, task_info: { at: 1 } });
    expect(first!.observation).toMatch(
      /^# Goal\nClick the button\.\n\n# Current page\n.*\n\n# Last action\n\(none\)\n\n/,
    );
    expect(second!.observation).toContain('# Last action\nnoop(10)\n');
  });

  it('ends as fail when the env finishes without a positive raw reward, and records fallbacks', async () => {
    const trajectory = await runEpisode(new FakeEnv(() => stepResult({ done: true, reward: 0 })), says('no idea'), {
      task: 'click-test',
      seed: 1,
    });
    expect(trajectory.outcome).toBe('fail');
    expect(trajectory.turns[0]).toMatchObject({ action: 'noop()', action_fallback: true });
  });

  it('ends as timeout when the turns run out or the env truncates', async () => {
    const endless = await runEpisode(new FakeEnv(() => stepResult()), says(), {
      task: 'click-test',
      seed: 1,
      maxTurns: 3,
    });
    expect(endless).toMatchObject({ outcome: 'timeout', error: null });
    expect(endless.turns).toHaveLength(3);
    const truncated = await runEpisode(
      new FakeEnv(() => stepResult({ done: true, info: { truncated: true } })),
      says(),
      { task: 'click-test', seed: 1 },
    );
    expect(truncated.outcome).toBe('timeout');
  });

  it('ends as timeout at its deadline, even when a call ignores the signal', async () => {
    const trajectory = await runEpisode(new FakeEnv(() => never), says(), {
      task: 'click-test',
      seed: 1,
      deadlineMs: 50,
    });
    expect(trajectory).toMatchObject({
      outcome: 'timeout',
      error: { name: 'EpisodeTimeoutError', message: expect.stringMatching(/did not finish within 50 ms/) },
    });
  });

  it('turns infrastructure failures into infra_error (never a reward), keeping the turns played', async () => {
    const env = new FakeEnv((_a, n) =>
      n < 2 ? stepResult({ reward: 0.5 }) : Promise.reject(new InfraError('browser died')),
    );
    const trajectory = await runEpisode(env, says(), { task: 'click-test', seed: 1 });
    expect(trajectory).toMatchObject({
      outcome: 'infra_error',
      error: { name: 'InfraError', message: 'browser died' },
    });
    expect(trajectory.turns).toHaveLength(1);
    const policyDown: EpisodePolicy = {
      start: () => Promise.reject(new PolicyUnavailableError('policy server unreachable', 0)),
    };
    expect(
      (await runEpisode(new FakeEnv(() => stepResult()), policyDown, { task: 'click-test', seed: 1 })).outcome,
    ).toBe('infra_error');
  });

  it("sends a scripted policy's action as chosen, without parsing it", async () => {
    const env = new FakeEnv(solvedAt(1));
    const typing = "fill('4', 'Action: click(9)')\nclick('5')";
    const trajectory = await runEpisode(
      env,
      scriptedPolicy('oracle', () => () => typing),
      { task: 'click-test', seed: 1 },
    );
    expect(env.actions).toEqual([typing]);
    expect(trajectory.turns[0]).toMatchObject({ action_text: typing, action: typing, action_fallback: false });
  });

  it('ends as fail when the policy gives up', async () => {
    const stuck = scriptedPolicy('oracle', () => () => {
      throw new PolicyGaveUpError('stuck on step 3');
    });
    expect(await runEpisode(new FakeEnv(() => stepResult()), stuck, { task: 'click-test', seed: 1 })).toMatchObject({
      outcome: 'fail',
      error: { name: 'PolicyGaveUpError' },
    });
  });

  it('rejects a wrong job and a cancellation instead of inventing an outcome', async () => {
    const badTask = new FakeEnv(() => stepResult());
    badTask.reset = () => Promise.reject(new ValidationError('Unknown task "nope"'));
    await expect(runEpisode(badTask, says(), { task: 'nope', seed: 1 })).rejects.toBeInstanceOf(ValidationError);
    const controller = new AbortController();
    const pending = runEpisode(new FakeEnv(() => never), says(), {
      task: 'click-test',
      seed: 1,
      signal: controller.signal,
    });
    controller.abort(new Error('worker draining'));
    await expect(pending).rejects.toThrow('worker draining');
  });

  it('hands every env call a deadline within the episode and the episode signal', async () => {
    const env = new FakeEnv(solvedAt(1));
    await runEpisode(env, says("click('5')"), {
      task: 'click-test',
      seed: 1,
      callTimeoutMs: 5_000,
      deadlineMs: 60_000,
    });
    for (const options of env.options) {
      expect(options!.timeoutMs).toBeGreaterThan(0);
      expect(options!.timeoutMs).toBeLessThanOrEqual(5_000);
      expect(options!.signal).toBeInstanceOf(AbortSignal);
    }
  });

  it("records a token policy's ids: env tokens follow every turn but the last", async () => {
    let next = 100;
    const tokens: EpisodePolicy = {
      async start(episode) {
        expect(episode.systemPrompt).toBe(BROWSER_SYSTEM_PROMPT);
        return {
          promptIds: [1, 2, 3],
          act: async () => ({
            text: "click('5')",
            completionIds: [next, next + 1],
            logprobs: [-0.1, -0.2],
            trimmedExchanges: 0,
            policy: { model: 'tiny', adapter: 'a', version: 2 },
          }),
          observe: async (observation) => (expect(observation).toContain("click('5')"), [(next += 10)]),
        };
      },
    };
    const trajectory = await runEpisode(new FakeEnv(solvedAt(3)), tokens, { task: 'click-test', seed: 1 });
    expect(trajectory.prompt_ids).toEqual([1, 2, 3]);
    expect(trajectory.turns.map((t) => [t.completion_ids, t.env_ids])).toEqual([
      [[100, 101], [110]],
      [[110, 111], [120]],
      [[120, 121], []],
    ]);
    expect(trajectory.turns[2]!.policy).toEqual({ model: 'tiny', adapter: 'a', version: 2 });
  });
});
