import { expect, test } from 'vitest';
import { gradcheck } from '../../../src/engine/gradcheck.js';
import { initLoraAdapter } from '../../../src/lora/adapter.js';
import { makeLoraConfig } from '../../../src/lora/config.js';
import { adapterFeeds } from '../../../src/graph/graph.js';
import { createRng } from '../../../src/model/random.js';
import { tinyModelConfig, tinyModelWeights } from '../../../src/model/tiny.js';
import { batchTotals, collate, type TrainSequence } from '../../../src/train/batch.js';
import { resolveDpoConfig, type DpoOptions } from '../../../src/train/dpo/config.js';
import { dpoLoss, IS_CHOSEN, PAIR_ID } from '../../../src/train/dpo/loss.js';
import { REF_LOGPROBS } from '../../../src/train/grpo/loss.js';
import { checkTrainGradients } from '../../support/train-gradcheck.js';
import { contextFrom } from '../grpo/loss-harness.js';
import { INPUT_NAMES, pairFeeds, type PairData } from './loss-harness.js';

// Two pairs, rows interleaved, margins of both signs; a masked position holds a stray value.
const data: PairData = {
  lp: [
    [-0.7, -1.3, 4],
    [-0.2, -2.1, -0.9],
    [-1.1, -0.4, -0.6],
    [-1.6, -0.3, -1.2],
  ],
  ref: [
    [-0.9, -1.0, 3],
    [-0.6, -1.7, -1.1],
    [-0.8, -0.9, -0.5],
    [-1.2, -0.8, -0.7],
  ],
  mask: [
    [1, 1, 0],
    [1, 1, 1],
    [0, 1, 1],
    [1, 1, 1],
  ],
  pair: [1, 2, 2, 1],
  chosen: [1, 0, 1, 0],
  totalSequences: 6,
};

const knobs: [string, DpoOptions][] = [
  ['sigmoid, β 0.1', {}],
  ['sigmoid, β 2, label smoothing 0.3', { beta: 2, labelSmoothing: 0.3 }],
  ['ipo, β 0.4', { lossType: 'ipo', beta: 0.4 }],
];

test.each(knobs)('DPO loss gradient w.r.t. log-probs matches finite differences: %s', async (label, options) => {
  const config = resolveDpoConfig(options);
  const feeds = pairFeeds(data);
  const names: readonly string[] = INPUT_NAMES;
  const inputs = INPUT_NAMES.map((name) => ({
    name,
    dims: [...feeds[name].dims],
    values: Array.from(feeds[name].data as Float64Array),
    differentiable: name === 'lp',
  }));
  const diffs = await gradcheck({
    op: 'dpo',
    label,
    inputs,
    build: (xs) => dpoLoss(config).build(contextFrom(xs[0]!.graph, (name) => xs[names.indexOf(name)]!)).loss,
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
 * Through a whole model: the LoRA gradients of the DPO loss against central differences in
 * float64. The reference log-probs are the model's own, shifted, so the margins are not zero.
 */
test.each(knobs)('DPO loss: LoRA gradients of a tiny model match finite differences (%s)', async (label, options) => {
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
  // Pair 0: a shared prompt [3, 10] with two completions; pair 1 likewise with [5].
  const rows: TrainSequence[] = [
    { tokens: [3, 10, 200, 7, 9], mask: [0, 0, 1, 1, 1] },
    { tokens: [5, 6, 42], mask: [0, 1, 1] },
    { tokens: [3, 10, 91, 8], mask: [0, 0, 1, 1] },
    { tokens: [5, 77, 12, 13], mask: [0, 1, 1, 1] },
  ].map((s, i) => ({
    ...s,
    extras: {
      [PAIR_ID]: i % 2,
      [IS_CHOSEN]: i < 2 ? 1 : 0,
      [REF_LOGPROBS]: s.tokens.map((_, t) => (s.mask[t] ? -5 + 0.3 * ((t + i) % 3) : 0)),
    },
  }));
  const { worst, largest } = await checkTrainGradients(
    config,
    weights,
    { lora, loss: dpoLoss(resolveDpoConfig(options)) },
    (graph) => ({ ...collate(rows, graph, batchTotals(rows), 'float64'), ...adapterFeeds(adapter, 'float64') }),
  );
  console.log(`${label}: worst |Δ| / tolerance = ${worst.toFixed(3)}, max |grad| ${largest.toExponential(2)}`);
  expect(largest).toBeGreaterThan(1e-4);
  expect(worst).toBeLessThanOrEqual(1);
});
