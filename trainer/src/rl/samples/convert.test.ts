import { describe, expect, it } from 'vitest';
import { groupSamples, trajectorySample } from './convert.js';
import { episode, group, turn } from '../../../test/support/trajectories.js';

const policy = { model: 'run@v0', adapter: 'run@v0', version: 0 };

describe('Trajectory → GrpoSample', () => {
  it('is token-exact: prompt ids, then each turn’s completion (mask 1, sampler logprobs) and env ids (mask 0, logprob 0)', () => {
    const t = episode(
      'g',
      0,
      [
        turn(0, { completion_ids: [10, 11], logprobs: [-0.5, -0.25], env_ids: [20, 21, 22] }),
        turn(1, { completion_ids: [12], logprobs: [-2], env_ids: [23], done: true }),
      ],
      1,
    );
    expect(trajectorySample(t, 'g')).toEqual({
      promptIds: [1, 2, 3],
      // The env ids after the last sampled token train nothing: left off.
      completionIds: [10, 11, 20, 21, 22, 12],
      samplerLogprobs: [-0.5, -0.25, 0, 0, 0, -2],
      envMask: [1, 1, 0, 0, 0, 1],
      group: 'g',
      reward: 1,
    });
  });

  it('has no sample for an episode that sampled nothing', () => {
    expect(trajectorySample(episode('g', 0, [turn(0)], 0), 'g')).toBeNull();
  });

  it('splits an episode that trimmed its context into per-turn samples on the exact prompts they saw', () => {
    const t = episode(
      'g',
      0,
      [
        turn(0, { completion_ids: [10], logprobs: [-1], env_ids: [20] }),
        turn(1, { completion_ids: [11], logprobs: [-1], env_ids: [21] }),
        turn(2, { completion_ids: [12], logprobs: [-1], trimmed_exchanges: 1 }),
      ],
      1,
    );
    const g = { ...group('g', [0], policy), trajectories: [t] };
    const { samples, splitEpisodes } = groupSamples([g], 'group');
    expect(splitEpisodes).toBe(1);
    expect(samples.map((s) => [s.promptIds, s.completionIds])).toEqual([
      [[1, 2, 3], [10]],
      [[1, 2, 3, 10, 20], [11]],
      [[1, 2, 3, 11, 21], [12]],
    ]);
  });

  it('sets group-relative advantages on every sample, per episode', () => {
    const { samples, skippedEpisodes } = groupSamples(
      [group('a', [1, 0], policy), group('b', [1, 1], policy)],
      'group',
    );
    expect(skippedEpisodes).toBe(0);
    expect(samples.map((s) => s.group)).toEqual(['a', 'a', 'b', 'b']);
    expect(samples[0]!.advantage).toBeGreaterThan(0.7);
    expect(samples[1]!.advantage).toBeCloseTo(-samples[0]!.advantage!, 12);
    expect(samples.slice(2).map((s) => s.advantage)).toEqual([0, 0]);
  });

  it('reports reward metrics over episodes, however many samples an episode splits into', () => {
    const long = episode(
      'a',
      0,
      [
        turn(0, { completion_ids: [10], logprobs: [-1], env_ids: [20] }),
        turn(1, { completion_ids: [11], logprobs: [-1], trimmed_exchanges: 1 }),
      ],
      1,
    );
    const a = group('a', [1, 0], policy);
    const { samples, rewardMetrics } = groupSamples([{ ...a, trajectories: [long, a.trajectories[1]!] }], 'group');
    expect(samples).toHaveLength(3);
    // Two episodes rewarded 1 and 0: the mean is ½ (per sample it would read ⅔).
    expect(rewardMetrics.reward).toBe(0.5);
    expect(rewardMetrics.frac_reward_zero_std).toBe(0);
  });
});

describe('Trajectory → GrpoSample with step credit (GiGPO)', () => {
  // Rendered observations: the login page (seen first, then again after a failed click) and the home page.
  const page = (url: string, lastAction: string, error = '') =>
    `# Goal\nLog in.\n\n# Current page\n${url}\n\n# Last action\n${lastAction}${error ? `\nError: ${error}` : ''}\n\n# Accessibility tree\n[5] button 'Login'`;
  const credit = { stepWeight: 1, gamma: 0.5 };

  // Episode 0: login (none) → login (after a type) → home, then the reward; episode 1: login → login
  // (after a failed click) and stops unrewarded. Returns (γ = ½): e0 .25, .5, 1; e1 0, 0.
  const e0 = episode(
    'g',
    0,
    [
      turn(0, { observation: page('/login', '(none)'), completion_ids: [10], logprobs: [-1], env_ids: [20, 21] }),
      turn(1, {
        observation: page('/login', "fill('5', 'x')"),
        completion_ids: [11, 12],
        logprobs: [-1, -1],
        env_ids: [22],
      }),
      turn(2, {
        observation: page('/home', "click('5')"),
        completion_ids: [13],
        logprobs: [-1],
        reward: 1,
        done: true,
      }),
    ],
    1,
  );
  const e1 = episode(
    'g',
    1,
    [
      turn(0, { observation: page('/login', '(none)'), completion_ids: [10], logprobs: [-1], env_ids: [20] }),
      turn(1, {
        observation: page('/login', "click('9')", 'no element 9'),
        completion_ids: [14],
        logprobs: [-1],
        done: true,
      }),
    ],
    0,
  );
  const g = { ...group('g', [1, 0], policy), trajectories: [e0, e1] };

  it('gives each turn episode + step advantage, on its completion and env tokens', () => {
    const { samples, anchorMetrics } = groupSamples([g], 'none', credit);
    // Episode advantages ±½. The login page (any last action) is one anchor: e0's turns 0 and 1
    // (.25, .5) and e1's (0, 0), mean 3/16; home is e0's turn 2 alone (step 0).
    const step = [
      [0.25 - 0.1875, 0.5 - 0.1875, 0],
      [-0.1875, -0.1875],
    ];
    const turns = [step[0]!.map((s) => 0.5 + s), step[1]!.map((s) => -0.5 + s)];
    const [t0, t1, t2] = turns[0]!;
    expect(samples[0]!.completionIds).toEqual([10, 20, 21, 11, 12, 22, 13]);
    expect(samples[0]!.tokenAdvantages).toEqual([t0, t0, t0, t1, t1, t1, t2]);
    expect(samples[1]!.completionIds).toEqual([10, 20, 14]);
    expect(samples[1]!.tokenAdvantages).toEqual([turns[1]![0], turns[1]![0], turns[1]![1]]);
    // The scalar stays the episode's (it is what GRPO would give).
    expect(samples.map((s) => s.advantage)).toEqual([0.5, -0.5]);
    expect(anchorMetrics).toEqual({
      'gigpo/anchor_groups': 1,
      'gigpo/anchor_group_size': 4,
      'gigpo/anchored_turns': 0.8,
    });
  });

  it('without step credit the samples are those of GRPO, with no per-token advantages or anchor metrics', () => {
    const plain = groupSamples([g], 'group');
    expect(plain.samples.every((s) => s.tokenAdvantages === undefined)).toBe(true);
    expect(plain.anchorMetrics).toBeUndefined();
    const weightless = groupSamples([g], 'group', { stepWeight: 0, gamma: 0.5 });
    expect(weightless.samples.map(({ tokenAdvantages: _, ...s }) => s)).toEqual(plain.samples);
  });

  it('an episode split per turn gives each turn sample its own turn’s advantage', () => {
    const trimmed = episode(
      'g',
      0,
      [
        turn(0, { observation: page('/login', '(none)'), completion_ids: [10], logprobs: [-1], env_ids: [20] }),
        // A turn that sampled nothing (no sample of its own) still counts in the returns and anchors.
        turn(1, { observation: page('/login', 'noop()'), env_ids: [21] }),
        turn(2, {
          observation: page('/home', "click('5')"),
          completion_ids: [12],
          logprobs: [-1],
          reward: 1,
          trimmed_exchanges: 1,
        }),
      ],
      1,
    );
    const { samples, splitEpisodes } = groupSamples([{ ...g, trajectories: [trimmed, e1] }], 'none', credit);
    expect(splitEpisodes).toBe(1);
    // Login anchor: trimmed's turns 0, 1 (.25, .5) and e1's (0, 0); home alone. Episode advantages ±½.
    const [a0, a2] = [0.5 + 0.25 - 0.1875, 0.5];
    expect(samples.slice(0, 2).map((s) => [s.completionIds, s.advantage, s.tokenAdvantages])).toEqual([
      [[10], a0, [a0]],
      [[12], a2, [a2]],
    ]);
  });
});
