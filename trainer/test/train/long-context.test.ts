import { describe, expect, test } from 'vitest';
import { hostTensor } from '../../src/engine/host-tensor.js';
import { seededRandom } from '../../src/engine/random.js';
import { Runtime } from '../../src/engine/runtime.js';
import { batchFeeds, padBatch } from '../../src/graph/graph-feeds.js';
import { buildModelGraph } from '../../src/graph/graph.js';
import { tinyModelConfig, tinyModelWeights } from '../../src/model/tiny.js';
import type { WeightMap } from '../../src/model/weights.js';
import { batchTotals, collate, type TrainSequence } from '../../src/train/batch.js';
import { sftLoss } from '../../src/train/loss.js';
import { FULL, trainedWeightNames } from '../../src/train/trainable.js';
import { buildTrainGraph, gradName, LOSS } from '../../src/train/train-graph.js';
import { checkTrainGradients, float64Weights } from '../support/train-gradcheck.js';
import { referenceLogits } from '../support/reference-forward.js';

/**
 * Contexts as long as a page's prompt, with attention sharp enough that what a query attends to
 * matters: block matrices at std 0.2 (init-tiny's 0.02 leaves attention near uniform, where a
 * wrong score would hardly show). Batched rows of different lengths are right-padded, so these
 * also check masking and position ids against each row run alone.
 */
const config = tinyModelConfig({ architecture: 'qwen2', hiddenSize: 32, numHeads: 4, numLayers: 2, headDim: 8 });

function sharpWeights(seed: number): WeightMap {
  const weights = tinyModelWeights(config, seed);
  for (const [name, w] of weights)
    if (name.startsWith('model.layers.') && !name.endsWith('norm.weight'))
      for (let i = 0; i < w.data.length; i++) w.data[i]! *= 10;
  return weights;
}

function randomTokens(random: () => number, n: number): number[] {
  return Array.from({ length: n }, () => 40 + Math.floor(random() * 60));
}

describe('long contexts, padded batches', () => {
  test('float64 logits of a padded batch (lengths 96 and 57) match the plain reference row by row', async () => {
    const weights = sharpWeights(3);
    const random = seededRandom(4);
    const rows = [randomTokens(random, 96), randomTokens(random, 57)];
    const graph = buildModelGraph(config, weights, { dtype: 'float64' });
    graph.graph.output(graph.logits, 'logits');
    const runtime = await Runtime.create(graph.graph, { intraOpNumThreads: 1 });
    const logits = (await runtime.run(batchFeeds(padBatch(rows, 0))))['logits']!.data as Float64Array;
    await runtime.release();
    const vocab = config.vocabSize;
    let diff = 0;
    let spread = 0;
    rows.forEach((tokens, b) => {
      const reference = referenceLogits({ config, weights }, tokens);
      reference.forEach((row, t) =>
        row.forEach((v, i) => {
          diff = Math.max(diff, Math.abs(v - logits[(b * 96 + t) * vocab + i]!));
          spread = Math.max(spread, Math.abs(v));
        }),
      );
    });
    expect(spread).toBeGreaterThan(1);
    expect(diff).toBeLessThan(1e-9);
  });

  // onnxruntime fuses float32 graphs (MatMul with folded transposes, …) in ways it does not fuse
  // float64 ones, so the float64 checks above do not cover the graph training actually runs.
  test('the float32 training graph (as onnxruntime optimises it) gives the float64 loss and gradients', async () => {
    const weights = sharpWeights(9);
    const trainable = trainedWeightNames(config, FULL);
    const random = seededRandom(10);
    const rows: TrainSequence[] = [96, 45].map((n) => ({
      tokens: randomTokens(random, n),
      mask: Array.from({ length: n }, (_, t) => (t >= n - 5 ? 1 : 0)),
    }));
    const run = async (dtype: 'float32' | 'float64') => {
      const graph = buildTrainGraph(config, weights, { trainable, loss: sftLoss, dtype });
      const runtime = await Runtime.create(graph.graph, { intraOpNumThreads: 1 });
      const params =
        dtype === 'float64'
          ? float64Weights(weights, trainable)
          : Object.fromEntries(
              trainable.map((n) => [n, hostTensor('float32', weights.get(n)!.shape, weights.get(n)!.data, n)]),
            );
      const out = await runtime.run({ ...collate(rows, graph, batchTotals(rows), dtype), ...params });
      await runtime.release();
      return out;
    };
    const [single, double] = [await run('float32'), await run('float64')];
    expect(single[LOSS]!.data[0] as number).toBeCloseTo(double[LOSS]!.data[0] as number, 4);
    for (const name of trainable) {
      const a = single[gradName(name)]!.data as Float32Array;
      const b = double[gradName(name)]!.data as Float64Array;
      let diff = 0;
      let scale = 0;
      for (let i = 0; i < b.length; i++) {
        diff = Math.max(diff, Math.abs(a[i]! - b[i]!));
        scale = Math.max(scale, Math.abs(b[i]!));
      }
      expect({ name, ok: diff <= 1e-3 * scale + 1e-7 }).toEqual({ name, ok: true });
    }
  });

  test('the loss and gradients of a padded batch are the sums of each row run alone', async () => {
    const weights = sharpWeights(5);
    const trainable = trainedWeightNames(config, FULL);
    const graph = buildTrainGraph(config, weights, { trainable, loss: sftLoss, dtype: 'float64' });
    const runtime = await Runtime.create(graph.graph, { intraOpNumThreads: 1 });
    const random = seededRandom(6);
    const rows: TrainSequence[] = [90, 41, 66].map((n) => ({
      tokens: randomTokens(random, n),
      mask: Array.from({ length: n }, (_, t) => (t >= n - 3 ? 1 : 0)),
    }));
    const totals = batchTotals(rows);
    const params = float64Weights(weights, trainable);
    const run = (batch: TrainSequence[]) => runtime.run({ ...collate(batch, graph, totals, 'float64'), ...params });
    const together = await run(rows);
    const alone = await Promise.all(rows.map((r) => run([r])));
    const sum = (name: string, i: number) => alone.reduce((s, out) => s + (out[name]!.data[i] as number), 0);
    expect(together[LOSS]!.data[0] as number).toBeCloseTo(sum(LOSS, 0), 10);
    let worst = 0;
    for (const name of trainable) {
      const g = together[gradName(name)]!.data as Float64Array;
      for (let i = 0; i < g.length; i++) worst = Math.max(worst, Math.abs(g[i]! - sum(gradName(name), i)));
    }
    expect(worst).toBeLessThan(1e-9);
    await runtime.release();
  });

  test('attention weights’ gradients at length 80 match finite differences', async () => {
    const weights = sharpWeights(7);
    const trainable = trainedWeightNames(config, FULL);
    const random = seededRandom(8);
    const rows: TrainSequence[] = [80, 52].map((n) => ({
      tokens: randomTokens(random, n),
      mask: Array.from({ length: n }, (_, t) => (t >= n - 4 ? 1 : 0)),
    }));
    const attention = [0, 1].flatMap((layer) =>
      ['q_proj', 'k_proj', 'v_proj', 'o_proj'].map((module) => `model.layers.${layer}.self_attn.${module}.weight`),
    );
    const { worst } = await checkTrainGradients(
      config,
      weights,
      { trainable, loss: sftLoss },
      (graph) => ({ ...collate(rows, graph, batchTotals(rows), 'float64'), ...float64Weights(weights, trainable) }),
      { entries: 4, checked: attention },
    );
    expect(worst).toBeLessThanOrEqual(1);
  });
});
