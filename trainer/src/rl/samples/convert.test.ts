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
