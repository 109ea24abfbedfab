import { describe, expect, test } from 'vitest';
import { computeAdvantages, weightedReward } from './advantages.js';
import { resolveGrpoConfig } from './config.js';

// Three groups: a = [1, 3, 5] (mean 3, Bessel std 2), b = [4, 4] (all equal), c = [0, 4] (mean 2, std √8).
// The batch [1, 3, 5, 4, 4, 0, 4] has mean 3 and Bessel std √(20 / 6).
const items = [
  { group: 'a', reward: 1 },
  { group: 'b', reward: 4 },
  { group: 'a', reward: 3 },
  { group: 'c', reward: 0 },
  { group: 'a', reward: 5 },
  { group: 'b', reward: 4 },
  { group: 'c', reward: 4 },
];
const EPS = 1e-4;
const close = (actual: number[], expected: number[]) =>
  actual.forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 12));

describe('group advantages', () => {
  test('group scaling: (r − group mean) / (group Bessel std + 1e-4), in input order', () => {
    const { advantages, metrics } = computeAdvantages(items, 'group');
    close(advantages, [-2 / (2 + EPS), 0, 0, -2 / (Math.sqrt(8) + EPS), 2 / (2 + EPS), 0, 2 / (Math.sqrt(8) + EPS)]);
    expect(metrics.reward).toBeCloseTo(3, 12);
    expect(metrics.reward_std).toBeCloseTo((3 * 2 + 2 * Math.sqrt(8)) / 7, 12);
    expect(metrics.frac_reward_zero_std).toBeCloseTo(1 / 3, 12);
  });

  test('batch scaling: group-centred, divided by the whole batch std', () => {
    const { advantages, metrics } = computeAdvantages(items, 'batch');
    const s = Math.sqrt(20 / 6) + EPS;
    close(advantages, [-2 / s, 0, 0, -2 / s, 2 / s, 0, 2 / s]);
    expect(metrics.reward_std).toBeCloseTo(Math.sqrt(20 / 6), 12);
    // all-equal groups are counted whatever the scaling: they teach nothing either way
    expect(metrics.frac_reward_zero_std).toBeCloseTo(1 / 3, 12);
  });

  test('no scaling: only centred', () => {
    close(computeAdvantages(items, 'none').advantages, [-2, 0, 0, -2, 2, 0, 2]);
  });

  test('a group of one has std 0 and advantage 0, and counts as all-equal', () => {
    const { advantages, metrics } = computeAdvantages(
      [
        { group: 'solo', reward: 7 },
        { group: 'pair', reward: 0 },
        { group: 'pair', reward: 1 },
      ],
      'group',
    );
    expect(advantages[0]).toBe(0);
    expect(advantages[2]).toBeCloseTo(0.5 / (Math.sqrt(0.5) + EPS), 12);
    expect(metrics.frac_reward_zero_std).toBeCloseTo(0.5, 12);
  });

  test('bad input is refused by name', () => {
    expect(() => computeAdvantages([], 'group')).toThrow(/batch is empty/);
    expect(() => computeAdvantages([{ group: 'a', reward: Number.NaN }], 'group')).toThrow(
      /completion 0 has reward NaN/,
    );
  });

  test('weighted reward parts: missing parts add nothing, unweighted parts count once', () => {
    expect(
      weightedReward({ success: 1, format: 0.5, judge: null, extra: Number.NaN }, { success: 2, format: 0.1 }),
    ).toBeCloseTo(2.05, 12);
    expect(weightedReward({ a: 1, b: undefined })).toBe(1);
  });
});

describe('GRPO config', () => {
  test("TRL's defaults", () => {
    expect(resolveGrpoConfig()).toEqual({
      scaleRewards: 'group',
      lossType: 'dapo',
      ratioLevel: 'token',
      epsilonLow: 0.2,
      epsilonHigh: 0.2,
      delta: null,
      beta: 0,
      klMetric: false,
      numIterations: 1,
      maskTruncatedCompletions: false,
      maxCompletionLength: null,
      samplerCorrection: { level: 'sequence', mode: 'mask', min: 0, max: 3 },
      logEntropy: true,
      advantage: 'grpo',
      stepWeight: 1,
      gamma: 0.95,
    });
    expect(resolveGrpoConfig({ epsilon: 0.1, epsilonHigh: 0.28, samplerCorrection: null })).toMatchObject({
      epsilonLow: 0.1,
      epsilonHigh: 0.28,
      samplerCorrection: null,
    });
  });

  test('inconsistent knobs are refused with the knob named', () => {
    expect(() => resolveGrpoConfig({ lossType: 'dr_grpo' })).toThrow(/dr_grpo needs maxCompletionLength/);
    expect(() => resolveGrpoConfig({ lossType: 'ppo' as never })).toThrow(
      /lossType must be one of grpo, bnpo, dr_grpo, dapo/,
    );
    expect(() => resolveGrpoConfig({ delta: 0.9 })).toThrow(/delta must be > 1/);
    expect(() => resolveGrpoConfig({ numIterations: 0 })).toThrow(/numIterations must be an integer ≥ 1/);
    expect(() => resolveGrpoConfig({ beta: -1 })).toThrow(/beta must be ≥ 0/);
    expect(() => resolveGrpoConfig({ samplerCorrection: { min: 2, max: 1 } })).toThrow(/0 ≤ min < max/);
    expect(() => resolveGrpoConfig({ advantage: 'ppo' as never })).toThrow(/advantage must be one of grpo, gigpo/);
    expect(() => resolveGrpoConfig({ advantage: 'gigpo', stepWeight: -0.5 })).toThrow(/stepWeight must be ≥ 0/);
    expect(() => resolveGrpoConfig({ advantage: 'gigpo', gamma: 1.5 })).toThrow(/gamma must be in \[0, 1\]/);
    expect(() => resolveGrpoConfig({ advantage: 'gigpo', ratioLevel: 'sequence' })).toThrow(/use ratioLevel token/);
  });
});
