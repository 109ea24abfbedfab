import { describe, expect, test } from 'vitest';
import { resolveGrpoConfig, type GrpoOptions } from '../../../src/train/grpo/config.js';
import { evaluateLoss, type LossData } from './loss-harness.js';

/**
 * Hand-worked values. Two sequences of three positions, the third of row 0 masked out:
 *   ratios r = exp(lp − lp_old):   row 0 (A = +1) [1.5, 0.5, –]   row 1 (A = −1) [1.1, 0.7, 1.3]
 *   sampler weights exp(lp_old − lp_sampler): row 0 [2, 4, –]      row 1 [1, 0.5, 1]
 *   ref − lp:                                 row 0 [ln 2, 0, –]   row 1 [0, ln ½, 0]
 * The batch is taken to be twice this micro-batch: 12 masked tokens, 4 sequences.
 * With ε = 0.2 (clip to [0.8, 1.2]) the per-token losses −min(r·A, clip(r)·A) are
 *   row 0: −min(1.5, 1.2) = −1.2, −min(0.5, 0.8) = −0.5;   row 1: 1.1, −min(−0.7, −0.8) = 0.8, −min(−1.3, −1.2) = 1.3
 * so Σ ℓ·m = 1.5 over 5 masked tokens, −1.7 in row 0 and 3.2 in row 1.
 */
const ln = Math.log;
const old = -1;
const ratios = [
  [1.5, 0.5, 1],
  [1.1, 0.7, 1.3],
];
const mask = [
  [1, 1, 0],
  [1, 1, 1],
];
const data: LossData = {
  // The masked position is unscored (lp 0) and carries a stray lp_old: it must not reach the loss.
  lp: ratios.map((row, b) => row.map((r, t) => (mask[b]![t] ? old + ln(r) : 0))),
  old: mask.map((row) => row.map((m) => (m ? old : -1000))),
  mask,
  advantage: [1, -1],
  sampler: [
    [old - ln(2), old - ln(4), 50],
    [old, old - ln(0.5), old],
  ],
  ref: [
    [old + ln(1.5) + ln(2), old + ln(0.5), 0],
    [old + ln(1.1), old + ln(0.7) + ln(0.5), old + ln(1.3)],
  ],
  entropy: [
    [0.5, 1.5, 9],
    [1, 2, 3],
  ],
  totalTokens: 12,
  totalSequences: 4,
};
const off = { samplerCorrection: null } as const;
const run = (options: GrpoOptions, d: LossData = data) => evaluateLoss(resolveGrpoConfig({ ...off, ...options }), d);

describe('GRPO loss: normalisations', () => {
  test.each([
    ['dapo: Σ / tokens in the whole batch', { lossType: 'dapo' }, 1.5 / 12],
    ['bnpo: Σ / tokens in this micro-batch × its share of sequences', { lossType: 'bnpo' }, (1.5 / 5) * (2 / 4)],
    ['grpo: per-sequence token means, / sequences in the batch', { lossType: 'grpo' }, (-1.7 / 2 + 3.2 / 3) / 4],
    [
      'dr_grpo: Σ / (sequences × max completion length)',
      { lossType: 'dr_grpo', maxCompletionLength: 4 },
      1.5 / (4 * 4),
    ],
  ] as const)('%s', async (_label, options, expected) => {
    expect((await run(options)).loss).toBeCloseTo(expected, 12);
  });
});

describe('GRPO loss: clipping', () => {
  test('token ratios: clip metrics count tokens clipped on the side that binds, and clipped tokens get no gradient', async () => {
    const { loss, metrics, grad } = await run({});
    expect(loss).toBeCloseTo(1.5 / 12, 12);
    // low: r < 0.8 with A < 0 (row 1's 0.7); high: r > 1.2 with A > 0 (row 0's 1.5); row 0's 0.5 and row 1's 1.3 are not clipped (A's sign)
    expect(metrics['clip_ratio/low_mean']).toBeCloseTo(1 / 12, 12);
    expect(metrics['clip_ratio/high_mean']).toBeCloseTo(1 / 12, 12);
    expect(metrics['clip_ratio/region_mean']).toBeCloseTo(2 / 12, 12);
    // d ℓ / d lp = −A·r on the unclipped branch, 0 on the clipped one
    const expected = [0, -0.5 / 12, 0, 1.1 / 12, 0, 1.3 / 12];
    grad.forEach((g, i) => expect(g).toBeCloseTo(expected[i]!, 12));
  });

  test('ε_high widens only the upper bound', async () => {
    // [0.8, 1.4]: row 0's 1.5 clips to 1.4 (−1.4); row 1's 1.3 is inside (1.3)
    const { loss, metrics } = await run({ epsilonHigh: 0.4 });
    expect(loss).toBeCloseTo((-1.4 - 0.5 + 1.1 + 0.8 + 1.3) / 12, 12);
    expect(metrics['clip_ratio/high_mean']).toBeCloseTo(1 / 12, 12);
  });

  test('a smaller ε clips more', async () => {
    // [0.9, 1.1]: −min(1.5, 1.1), −min(0.5, 0.9); 1.1, −min(−0.7, −0.9), −min(−1.3, −1.1)
    const { loss, metrics } = await run({ epsilon: 0.1 });
    expect(loss).toBeCloseTo((-1.1 - 0.5 + 1.1 + 0.9 + 1.3) / 12, 12);
    expect(metrics['clip_ratio/region_mean']).toBeCloseTo(2 / 12, 12);
  });

  test('δ caps the unclipped branch: row 1’s 1.3 becomes 1.25', async () => {
    const { loss } = await run({ delta: 1.25 });
    expect(loss).toBeCloseTo((1.5 - 1.3 + 1.25) / 12, 12);
  });

  test('sequence ratios (GSPO): exp of the masked mean log-ratio, clip metrics over sequences', async () => {
    // row 0: exp((ln 1.5 + ln 0.5) / 2) = √0.75 ≈ 0.866; row 1: 1.001^(1/3)
    const [r0, r1] = [Math.sqrt(0.75), 1.001 ** (1 / 3)];
    expect((await run({ ratioLevel: 'sequence' })).loss).toBeCloseTo((-2 * r0 + 3 * r1) / 12, 12);
    // flipped advantages and ε = 0.1: row 0 (A = −1) clips at 0.9 → −min(−r0, −0.9) = 0.9 per token
    const { loss, metrics } = await run({ ratioLevel: 'sequence', epsilon: 0.1 }, { ...data, advantage: [-1, 1] });
    expect(loss).toBeCloseTo((2 * 0.9 - 3 * r1) / 12, 12);
    expect(metrics['clip_ratio/low_mean']).toBeCloseTo(1 / 4, 12);
    expect(metrics['clip_ratio/high_mean']).toBe(0);
    expect(metrics['clip_ratio/region_mean']).toBeCloseTo(1 / 4, 12);
  });
});

describe('GRPO loss: sampler → trainer correction', () => {
  // per-token losses: row 0 [−1.2, −0.5], row 1 [1.1, 0.8, 1.3]
  test.each([
    ['token truncate [0, 3]: 4 → 3', { level: 'token', mode: 'truncate' }, -1.2 * 2 - 0.5 * 3 + 1.1 + 0.8 * 0.5 + 1.3],
    ['token mask [0, 3]: 4 → 0', { level: 'token', mode: 'mask' }, -1.2 * 2 + 1.1 + 0.8 * 0.5 + 1.3],
    [
      'token truncate [0.6, 3]: 0.5 → 0.6',
      { level: 'token', mode: 'truncate', min: 0.6 },
      -1.2 * 2 - 0.5 * 3 + 1.1 + 0.8 * 0.6 + 1.3,
    ],
    [
      'sequence truncate [0, 3]: row 0 exp(ln 2 + ln 4) = 8 → 3, row 1 0.5',
      { level: 'sequence', mode: 'truncate' },
      -1.7 * 3 + 3.2 * 0.5,
    ],
    ['sequence mask [0, 3]: row 0 → 0', { level: 'sequence', mode: 'mask' }, 3.2 * 0.5],
    ['sequence mask [0.6, 3]: both rows → 0', { level: 'sequence', mode: 'mask', min: 0.6 }, 0],
  ] as const)('%s', async (_label, samplerCorrection, sum) => {
    expect((await run({ samplerCorrection })).loss).toBeCloseTo(sum / 12, 12);
  });

  test('the weight multiplies after the clipped min and carries no gradient of its own', async () => {
    const { grad } = await run({ samplerCorrection: { level: 'token', mode: 'truncate' } });
    const expected = [0, (-0.5 * 3) / 12, 0, 1.1 / 12, 0, 1.3 / 12];
    grad.forEach((g, i) => expect(g).toBeCloseTo(expected[i]!, 12));
  });
});

describe('GRPO loss: old log-probs', () => {
  test('OLD_IS_CURRENT = 1 takes lp_old from the current log-probs (ratio 1): ℓ = −A per token', async () => {
    const { loss, grad } = await run({}, { ...data, oldIsCurrent: [1, 1] });
    expect(loss).toBeCloseTo((-2 + 3) / 12, 12);
    // held constant: the gradient is −A·1 per masked token, as the policy gradient
    const expected = [-1 / 12, -1 / 12, 0, 1 / 12, 1 / 12, 1 / 12];
    grad.forEach((g, i) => expect(g).toBeCloseTo(expected[i]!, 12));
  });

  test('per sequence: row 0 current, row 1 from the input', async () => {
    expect((await run({}, { ...data, oldIsCurrent: [1, 0] })).loss).toBeCloseTo((-2 + 3.2) / 12, 12);
  });

  test('with current lp_old the sampler weight is exp(lp − lp_sampler): r·w', async () => {
    // row 0: 1.5·2 = 3, 0.5·4 = 2; row 1: 1.1·1, 0.7·0.5, 1.3·1 (truncate at 3 leaves them)
    const { loss } = await run(
      { samplerCorrection: { level: 'token', mode: 'truncate' } },
      { ...data, oldIsCurrent: [1, 1] },
    );
    expect(loss).toBeCloseTo((-3 - 2 + 1.1 + 0.35 + 1.3) / 12, 12);
  });
});

describe('GRPO loss: KL and entropy', () => {
  test('β·k3 with k3 = exp(ref − lp) − (ref − lp) − 1, and its masked mean as `kl`', async () => {
    // k3(ln 2) = 1 − ln 2, k3(ln ½) = ln 2 − ½, the rest 0: Σ = ½
    const { loss, metrics } = await run({ beta: 0.1 });
    expect(loss).toBeCloseTo((1.5 + 0.1 * 0.5) / 12, 12);
    expect(metrics['kl']).toBeCloseTo(0.5 / 12, 12);
  });

  test('entropy is a masked mean over the batch; kl is reported only with β > 0', async () => {
    const { metrics } = await run({});
    expect(metrics['entropy']).toBeCloseTo((0.5 + 1.5 + 1 + 2 + 3) / 12, 12);
    expect(metrics['kl']).toBeUndefined();
    expect(Object.keys((await run({ logEntropy: false })).metrics)).toEqual([
      'clip_ratio/low_mean',
      'clip_ratio/high_mean',
      'clip_ratio/region_mean',
    ]);
  });
});
