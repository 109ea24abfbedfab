import { describe, expect, test } from 'vitest';
import { ADVANTAGE_EPSILON } from './advantages.js';
import { discountedReturns, gigpoAdvantages, type AnchoredEpisode } from './gigpo.js';

/** An episode whose turns start from `anchors` and earn `rewards`; its reward is their sum. */
const ep = (group: string, anchors: string, rewards: number[]): AnchoredEpisode => ({
  group,
  reward: rewards.reduce((a, b) => a + b, 0),
  turns: [...anchors].map((anchor, k) => ({ anchor, reward: rewards[k]! })),
});
const close = (got: number[][], want: number[][]) =>
  got.forEach((row, i) => row.forEach((v, k) => expect(v, `episode ${i} turn ${k}`).toBeCloseTo(want[i]![k]!, 12)));

describe('discounted returns', () => {
  test('R_t = r_t + γ·R_{t+1}, from each turn to the end', () => {
    expect(discountedReturns([0, 0, 1], 0.5)).toEqual([0.25, 0.5, 1]);
    expect(discountedReturns([1, 0, 2], 0.5)).toEqual([1.5, 1, 2]);
    expect(discountedReturns([1, 2, 3], 1)).toEqual([6, 5, 3]);
    expect(discountedReturns([1, 2, 3], 0)).toEqual([1, 2, 3]);
    expect(discountedReturns([], 0.9)).toEqual([]);
  });
});

describe('GiGPO advantages', () => {
  // Group g: three episodes through anchors A→B→C, A→D and A→B; group h: two episodes from A.
  // γ = ½. Returns: g0 A .25, B .5, C 1 · g1 A 0, D 0 · g2 A .5, B 1 · h0 A 1 · h1 A 0.
  const episodes = [
    ep('g', 'ABC', [0, 0, 1]),
    ep('g', 'AD', [0, 0]),
    ep('g', 'AB', [0, 1]),
    ep('h', 'A', [1]),
    ep('h', 'A', [0]),
  ];

  test('anchor groups are per group and per state; singletons get 0; combined = episode + w × step (scale none)', () => {
    const r = gigpoAdvantages(episodes, 'none', { stepWeight: 1, gamma: 0.5 });
    // Episode level: g's rewards 1, 0, 1 (mean ⅔); h's 1, 0 (mean ½).
    close([r.episode.advantages], [[1 / 3, -2 / 3, 1 / 3, 0.5, -0.5]]);
    // g·A {.25, 0, .5} mean .25; g·B {.5, 1} mean .75; g·C, g·D alone; h·A {1, 0} mean .5 (never mixed with g·A).
    close(r.step, [[0, -0.25, 0], [-0.25, 0], [0.25, 0.25], [0.5], [-0.5]]);
    close(r.turns, [[1 / 3, 1 / 12, 1 / 3], [-11 / 12, -2 / 3], [7 / 12, 7 / 12], [1], [-1]]);
    // Anchor groups of two or more: g·A (3), g·B (2), h·A (2); 7 of the 9 turns are in one.
    expect(r.metrics).toEqual({
      'gigpo/anchor_groups': 3,
      'gigpo/anchor_group_size': 7 / 3,
      'gigpo/anchored_turns': 7 / 9,
    });
  });

  test('scale group divides each anchor group by its Bessel σ + 1e-4, as the episode advantage is; stepWeight scales the step part', () => {
    const r = gigpoAdvantages(episodes, 'group', { stepWeight: 0.5, gamma: 0.5 });
    const sA = 0.25 / (0.25 + ADVANTAGE_EPSILON); // g·A: σ = .25
    const sB = 0.25 / (Math.SQRT1_2 / 2 + ADVANTAGE_EPSILON); // g·B {.5, 1}: σ = √2/4
    const sH = 0.5 / (Math.SQRT1_2 + ADVANTAGE_EPSILON); // h·A {1, 0}: σ = √2/2
    close(r.step, [[0, -sB, 0], [-sA, 0], [sA, sB], [sH], [-sH]]);
    const e = r.episode.advantages;
    close(r.turns, [
      [e[0]!, e[0]! - 0.5 * sB, e[0]!],
      [e[1]! - 0.5 * sA, e[1]!],
      [e[2]! + 0.5 * sA, e[2]! + 0.5 * sB],
      [e[3]! + 0.5 * sH],
      [e[4]! - 0.5 * sH],
    ]);
  });

  test('equal episode rewards teach GRPO nothing, but the shorter path from a shared state still gets credit', () => {
    // Both succeed: A→B→done, and A→C→B→done (a detour). γ = ½.
    const r = gigpoAdvantages([ep('g', 'AB', [0, 1]), ep('g', 'ACB', [0, 0, 1])], 'none', {
      stepWeight: 1,
      gamma: 0.5,
    });
    expect(r.episode.advantages).toEqual([0, 0]);
    // A: returns .5 and .25 (mean .375); B: 1 and 1 (equal: 0); C alone: 0.
    close(r.turns, [
      [0.125, 0],
      [-0.125, 0, 0],
    ]);
    expect(r.metrics['gigpo/anchor_groups']).toBe(2);
  });

  test('a state repeated within one episode is in its anchor group once per visit', () => {
    // A, a noop back to A, then B and the reward: A's two visits return .25 and .5.
    const r = gigpoAdvantages([ep('g', 'AAB', [0, 0, 1]), ep('g', 'B', [0])], 'none', { stepWeight: 1, gamma: 0.5 });
    close(r.step, [[-0.125, 0.125, 0.5], [-0.5]]);
    expect(r.metrics).toEqual({
      'gigpo/anchor_groups': 2,
      'gigpo/anchor_group_size': 2,
      'gigpo/anchored_turns': 1,
    });
  });

  test('stepWeight 0 gives every turn its episode advantage: GRPO', () => {
    const r = gigpoAdvantages(episodes, 'group', { stepWeight: 0, gamma: 0.95 });
    r.turns.forEach((row, i) => row.forEach((a) => expect(a).toBe(r.episode.advantages[i])));
  });

  test('episodes without turns have no step part, and the metrics stay finite', () => {
    const r = gigpoAdvantages([ep('g', '', []), ep('g', '', [])], 'group', { stepWeight: 1, gamma: 0.95 });
    expect(r.turns).toEqual([[], []]);
    expect(r.metrics).toEqual({
      'gigpo/anchor_groups': 0,
      'gigpo/anchor_group_size': 0,
      'gigpo/anchored_turns': 0,
    });
  });
});
