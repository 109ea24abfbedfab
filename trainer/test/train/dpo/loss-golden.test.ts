import { describe, expect, test } from 'vitest';
import { resolveDpoConfig, type DpoOptions } from '../../../src/train/dpo/config.js';
import { evaluateDpoLoss, type PairData } from './loss-harness.js';

/**
 * Hand-worked values. Two pairs, their rows interleaved (the loss pairs rows by id, not position):
 *   row 0  pair 7 rejected  lp [−0.5, −0.5, −0.5]  ref [−1, −1, −1]      mask [1, 1, 1]  π −1.5  ref −3    π − ref  1.5
 *   row 1  pair 3 chosen    lp [−0.5, −1, −0.5]    ref [−1, −1, −0.5]    mask [1, 1, 1]  π −2    ref −2.5  π − ref  0.5
 *   row 2  pair 7 chosen    lp [−5, −1, −1]        ref [0, −1.5, −1.5]   mask [0, 1, 1]  π −2    ref −3    π − ref  1
 *   row 3  pair 3 rejected  lp [−2, −1, 0]         ref [−1.5, −1, 7]     mask [1, 1, 0]  π −3    ref −2.5  π − ref −0.5
 * (masked positions hold stray values that must not count). So z = (π_c − ref_c) − (π_r − ref_r)
 * is 0.5 + 0.5 = 1 for pair 3 and 1 − 1.5 = −0.5 for pair 7. The batch is taken to be twice this
 * micro-batch: 8 sequences, 4 pairs.
 */
const data: PairData = {
  lp: [
    [-0.5, -0.5, -0.5],
    [-0.5, -1, -0.5],
    [-5, -1, -1],
    [-2, -1, 0],
  ],
  ref: [
    [-1, -1, -1],
    [-1, -1, -0.5],
    [0, -1.5, -1.5],
    [-1.5, -1, 7],
  ],
  mask: [
    [1, 1, 1],
    [1, 1, 1],
    [0, 1, 1],
    [1, 1, 0],
  ],
  pair: [7, 3, 7, 3],
  chosen: [0, 1, 1, 0],
  totalSequences: 8,
};
const z = { 3: 1, 7: -0.5 };
const softplus = (x: number) => Math.log1p(Math.exp(x));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const run = (options: DpoOptions, d: PairData = data) => evaluateDpoLoss(resolveDpoConfig(options), d);
/** Expected d loss / d lp: dℓ/dz · (±mask) / pairs, + on the chosen row, − on the rejected one. */
const expectedGrad = (dldz: Record<3 | 7, number>, d: PairData = data) =>
  d.mask.flatMap((row, b) =>
    row.map((m) => (m * (d.chosen[b] ? 1 : -1) * dldz[d.pair[b] as 3 | 7]) / (d.totalSequences / 2)),
  );
const expectClose = (actual: number[], expected: number[]) =>
  actual.forEach((g, i) => expect(g, `entry ${i}`).toBeCloseTo(expected[i]!, 12));

describe('DPO loss: sigmoid', () => {
  test.each([0.1, 1, 2.5])(
    'β = %s: ℓ = −log σ(βz) per pair, / pairs in the batch, and dℓ/dz = −β σ(−βz)',
    async (beta) => {
      const { loss, grad } = await run({ beta });
      expect(loss).toBeCloseTo((softplus(-beta * z[3]) + softplus(-beta * z[7])) / 4, 12);
      expectClose(grad, expectedGrad({ 3: -beta * sigmoid(-beta * z[3]), 7: -beta * sigmoid(-beta * z[7]) }));
    },
  );

  test('metrics with TRL names: β-scaled rewards, their margin and accuracy, summed log-probs; means over pairs', async () => {
    const { metrics } = await run({ beta: 0.1 });
    const expected = {
      'rewards/chosen': (0.1 * (0.5 + 1)) / 4,
      'rewards/rejected': (0.1 * (-0.5 + 1.5)) / 4,
      'rewards/margins': (0.1 * (1 - 0.5)) / 4,
      'rewards/accuracies': 1 / 4,
      'logps/chosen': (-2 - 2) / 4,
      'logps/rejected': (-3 - 1.5) / 4,
    };
    expect(Object.keys(metrics).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, value] of Object.entries(expected)) expect(metrics[name], name).toBeCloseTo(value, 12);
  });

  test('policy = reference (the first step): z = 0, ℓ = log 2 per pair, gradient exactly ∓β/2 per token', async () => {
    const same = { ...data, ref: data.lp };
    const { loss, metrics, grad } = await run({ beta: 0.2 }, same);
    expect(loss).toBeCloseTo((2 * Math.LN2) / 4, 12);
    expect(metrics['rewards/accuracies']).toBe(0);
    expect(metrics['rewards/margins']).toBe(0);
    expectClose(grad, expectedGrad({ 3: -0.1, 7: -0.1 }));
  });

  test('label smoothing ε (cDPO): ℓ = (1 − ε)·(−log σ(βz)) + ε·(−log σ(−βz))', async () => {
    const [beta, eps] = [0.5, 0.2];
    const l = (x: number) => (1 - eps) * softplus(-beta * x) + eps * softplus(beta * x);
    const dl = (x: number) => -(1 - eps) * beta * sigmoid(-beta * x) + eps * beta * sigmoid(beta * x);
    const { loss, grad } = await run({ beta, labelSmoothing: eps });
    expect(loss).toBeCloseTo((l(z[3]) + l(z[7])) / 4, 12);
    expectClose(grad, expectedGrad({ 3: dl(z[3]), 7: dl(z[7]) }));
  });

  test('stays finite for margins far beyond float range of exp: ℓ → −βz on the losing side, 0 on the winning side', async () => {
    const far = { ...data, lp: data.lp.map((row, b) => row.map((v) => v + (data.chosen[b] ? 400 : -400))) };
    // pair 3: z = 1 + 400·3 + 400·2; pair 7: z = −0.5 + 400·2 + 400·3 (masked tokens do not count)
    const { loss, grad } = await run({ beta: 1 }, far);
    expect(loss).toBeCloseTo(0, 12);
    expect(grad.every(Number.isFinite)).toBe(true);
    const flipped = { ...data, chosen: data.chosen.map((c) => 1 - c) };
    const { loss: lost } = await run({ beta: 1 }, { ...far, chosen: flipped.chosen });
    expect(lost).toBeCloseTo((2001 + 1999.5) / 4, 6);
  });
});

describe('DPO loss: ipo', () => {
  test('ℓ = (z − 1/(2β))² on length-averaged log-probs', async () => {
    // pair 3: chosen (−2 − (−2.5)) / 3 = 1/6, rejected (−3 − (−2.5)) / 2 = −1/4 → z = 5/12
    // pair 7: chosen (−2 − (−3)) / 2 = 1/2, rejected (−1.5 − (−3)) / 3 = 1/2 → z = 0
    const beta = 0.5;
    const { loss, metrics, grad } = await run({ beta, lossType: 'ipo' });
    expect(loss).toBeCloseTo(((5 / 12 - 1) ** 2 + (0 - 1) ** 2) / 4, 12);
    expect(metrics['logps/chosen']).toBeCloseTo((-2 / 3 - 1) / 4, 12);
    // dℓ/dz = 2(z − 1/(2β)); dz/dlp = ±mask / (tokens in that row)
    const dldz = { 3: 2 * (5 / 12 - 1), 7: 2 * (0 - 1) };
    const rowTokens = data.mask.map((row) => row.reduce((a, b) => a + b, 0));
    expectClose(
      grad,
      expectedGrad(dldz).map((g, i) => g / rowTokens[Math.floor(i / 3)]!),
    );
  });
});

describe('DPO config', () => {
  test.each([
    [{ beta: 0 }, 'beta must be a number > 0'],
    [{ labelSmoothing: 0.5 }, 'label_smoothing must be in [0, 0.5)'],
    [{ labelSmoothing: -0.1 }, 'label_smoothing must be in [0, 0.5)'],
    [{ lossType: 'ipo', labelSmoothing: 0.1 }, 'label_smoothing applies to loss_type sigmoid only'],
    [{ lossType: 'hinge' }, 'loss_type must be one of sigmoid, ipo'],
  ] as const)('%j is refused: %s', (options, message) => {
    expect(() => resolveDpoConfig(options as DpoOptions)).toThrow(message);
  });

  test("TRL's defaults", () => {
    expect(resolveDpoConfig()).toEqual({ beta: 0.1, labelSmoothing: 0, lossType: 'sigmoid' });
  });
});
