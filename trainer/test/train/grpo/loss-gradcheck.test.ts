import { expect, test } from 'vitest';
import { gradcheck } from '../../../src/engine/gradcheck.js';
import { initLoraAdapter } from '../../../src/lora/adapter.js';
import { makeLoraConfig } from '../../../src/lora/config.js';
import { adapterFeeds } from '../../../src/graph/graph.js';
import { createRng } from '../../../src/model/random.js';
import { tinyModelConfig, tinyModelWeights } from '../../../src/model/tiny.js';
import { batchTotals, collate, type TrainSequence } from '../../../src/train/batch.js';
import { resolveGrpoConfig, type GrpoOptions } from '../../../src/train/grpo/config.js';
import {
  ADVANTAGE,
  grpoLoss,
  OLD_IS_CURRENT,
  OLD_LOGPROBS,
  REF_LOGPROBS,
  SAMPLER_LOGPROBS,
} from '../../../src/train/grpo/loss.js';
import { LOGPROBS } from '../../../src/train/train-graph.js';
import { checkTrainGradients } from '../../support/train-gradcheck.js';
import { contextFrom, lossFeeds, type LossData } from './loss-harness.js';

// Ratios and weights sit away from every clip bound and cap, where the loss is smooth.
const ln = Math.log;
const data: LossData = {
  lp: [
    [-1 + ln(1.5), -1 + ln(0.5), 0.3],
    [-1 + ln(1.1), -1 + ln(0.7), -1 + ln(1.3)],
  ],
  old: [
    [-1, -1, -1000],
    [-1, -1, -1],
  ],
  mask: [
    [1, 1, 0],
    [1, 1, 1],
  ],
  advantage: [1.3, -0.7],
  sampler: [
    [-1.4, -2.2, 0],
    [-0.9, -0.5, -1.1],
  ],
  ref: [
    [-0.2, -2.5, 0],
    [-1.3, -0.8, -0.6],
  ],
  entropy: [
    [1, 2, 3],
    [1, 2, 3],
  ],
  totalTokens: 9,
  totalSequences: 3,
};

const knobs: [string, GrpoOptions][] = [
  ['token ratios, dapo', {}],
  ['token ratios, bnpo, δ and ε_high', { lossType: 'bnpo', delta: 1.25, epsilonHigh: 0.35 }],
  [
    'sequence ratios, grpo, KL, token-truncate correction',
    {
      lossType: 'grpo',
      ratioLevel: 'sequence',
      beta: 0.2,
      samplerCorrection: { level: 'token', mode: 'truncate', min: 0.1, max: 3 },
    },
  ],
  [
    'token ratios, dr_grpo, KL, sequence-mask correction',
    { lossType: 'dr_grpo', maxCompletionLength: 5, beta: 0.05, samplerCorrection: { level: 'sequence', mode: 'mask' } },
  ],
  [
    'token ratios, sequence-truncate correction',
    { samplerCorrection: { level: 'sequence', mode: 'truncate', max: 1.5 } },
  ],
];

test.each(knobs)('GRPO loss gradient w.r.t. log-probs matches finite differences: %s', async (label, options) => {
  const config = resolveGrpoConfig({ samplerCorrection: null, ...options });
  const feeds = lossFeeds(data);
  const names = [
    'lp',
    'mask',
    'entropy',
    ADVANTAGE,
    OLD_IS_CURRENT,
    OLD_LOGPROBS,
    SAMPLER_LOGPROBS,
    REF_LOGPROBS,
    'total_tokens',
    'total_sequences',
  ];
  const inputs = names.map((name) => ({
    name,
    dims: [...feeds[name]!.dims],
    values: Array.from(feeds[name]!.data as Float64Array),
    differentiable: name === 'lp',
  }));
  const diffs = await gradcheck({
    op: 'grpo',
    label,
    inputs,
    build: (xs) => grpoLoss(config).build(contextFrom(xs[0]!.graph, (name) => xs[names.indexOf(name)]!)).loss,
  });
  for (const d of diffs)
    console.log(
      `${label} · ${d.name}: max|Δ| = ${d.maxAbsDiff.toExponential(2)} (max|grad| ${d.maxAbsGrad.toExponential(2)})`,
    );
  expect(diffs).toHaveLength(1);
  expect(diffs[0]!.maxAbsGrad).toBeGreaterThan(0.01);
  expect(diffs[0]!.worstRatio).toBeLessThanOrEqual(1);
});

/**
 * Through a whole model: the LoRA gradients of the GRPO loss (KL, correction, δ, GSPO on) against
 * central differences, in float64, as the SFT loss is checked. lp_old is an input here (a
 * held-constant copy of lp would move with each perturbation).
 */
test.each<[string, GrpoOptions]>([
  [
    'token ratios, dapo, KL, δ, token-truncate correction',
    { beta: 0.1, delta: 1.5, samplerCorrection: { level: 'token', mode: 'truncate' } },
  ],
  ['sequence ratios, grpo, KL, sequence-mask correction', { lossType: 'grpo', ratioLevel: 'sequence', beta: 0.1 }],
])('GRPO loss: LoRA gradients of a tiny model match finite differences (%s)', async (label, options) => {
  const config = tinyModelConfig({
    architecture: 'qwen3',
    hiddenSize: 16,
    numHeads: 4,
    numKvHeads: 2,
    numLayers: 1,
    intermediateSize: 24,
    headDim: 8,
  });
  const weights = tinyModelWeights(config, 5);
  const lora = makeLoraConfig({ rank: 2, alpha: 4 });
  const adapter = initLoraAdapter(config, lora, 6);
  const rng = createRng(7);
  for (const m of adapter.modules.values())
    for (let i = 0; i < m.b.data.length; i++) m.b.data[i] = rng.uniform(-0.3, 0.3);
  const grpo = resolveGrpoConfig(options);
  const base: TrainSequence[] = [
    { tokens: [3, 10, 200, 7, 9], mask: [0, 0, 1, 0, 1] },
    { tokens: [5, 6, 42], mask: [0, 1, 1] },
  ];
  const zeros = (s: TrainSequence) => s.tokens.map(() => 0);
  const withExtras = (old: (s: TrainSequence, i: number) => number[]) =>
    base.map((s, i) => ({
      ...s,
      extras: {
        [ADVANTAGE]: i === 0 ? 0.8 : -1.1,
        [OLD_IS_CURRENT]: 0,
        [OLD_LOGPROBS]: old(s, i),
        [SAMPLER_LOGPROBS]: zeros(s),
        [REF_LOGPROBS]: zeros(s),
      },
    }));
  const adapterIn = adapterFeeds(adapter, 'float64');
  const { worst, largest } = await checkTrainGradients(
    config,
    weights,
    { lora, loss: grpoLoss(grpo), temperature: 0.9 },
    async (graph, runtime) => {
      // The current log-probs set lp_old (nudged, so ratios are near 1 but not 1), sampler and reference.
      const first = await runtime.run({
        ...collate(withExtras(zeros), graph, batchTotals(base), 'float64'),
        ...adapterIn,
      });
      const seq = first[LOGPROBS]!.dims[1]!;
      const lp = (i: number, t: number) =>
        t > 0 && base[i]!.mask[t] ? (first[LOGPROBS]!.data[i * seq + t - 1] as number) : 0;
      const shifted = (offset: number) => (s: TrainSequence, i: number) =>
        s.tokens.map((_, t) => (s.mask[t] ? lp(i, t) + offset * (t % 2 ? 1 : -1) : 0));
      const rows = withExtras(shifted(0.1)).map((r, i) => ({
        ...r,
        extras: { ...r.extras, [SAMPLER_LOGPROBS]: shifted(0.15)(r, i), [REF_LOGPROBS]: shifted(-0.2)(r, i) },
      }));
      return { ...collate(rows, graph, batchTotals(rows), 'float64'), ...adapterIn };
    },
  );
  console.log(`${label}: worst |Δ| / tolerance = ${worst.toFixed(3)}, max |grad| ${largest.toExponential(2)}`);
  expect(largest).toBeGreaterThan(1e-3);
  expect(worst).toBeLessThanOrEqual(1);
});
