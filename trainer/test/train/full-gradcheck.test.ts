import { describe, expect, test } from 'vitest';
import { Runtime } from '../../src/engine/runtime.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import { tinyModelConfig, tinyModelWeights } from '../../src/model/tiny.js';
import { batchTotals, collate, type TrainSequence } from '../../src/train/batch.js';
import { sftLoss } from '../../src/train/loss.js';
import { FULL, parseTrainSpec, trainedWeightNames } from '../../src/train/trainable.js';
import { buildTrainGraph, gradName, LOSS } from '../../src/train/train-graph.js';
import { LoraTrainer } from '../../src/train/trainer.js';
import { checkTrainGradients, float64Weights } from '../support/train-gradcheck.js';

/**
 * Full-parameter training: every base weight is a graph input with a gradient, checked against
 * central differences in float64, and one trainer step (float32) against those figures and the
 * hand-computable first AdamW step.
 */
const rows: TrainSequence[] = [
  { tokens: [3, 10, 200, 7, 9], mask: [0, 0, 1, 1, 1] },
  { tokens: [5, 6, 42], mask: [0, 1, 1] },
];

const configOf = (architecture: 'qwen3' | 'llama' | 'qwen2') =>
  tinyModelConfig({
    architecture,
    hiddenSize: 16,
    numHeads: 4,
    numKvHeads: 2,
    numLayers: 2,
    intermediateSize: 24,
    headDim: 8,
    tieWordEmbeddings: architecture !== 'llama',
  });

describe('full-parameter training graph', () => {
  test.each(['qwen3', 'llama', 'qwen2'] as const)(
    '%s: gradients of every base weight match finite differences',
    async (architecture) => {
      const config = configOf(architecture);
      const weights = tinyModelWeights(config, 5);
      const trainable = trainedWeightNames(config, FULL);
      const { worst, parameters } = await checkTrainGradients(
        config,
        weights,
        { trainable, loss: sftLoss, temperature: 0.8 },
        (graph) => ({ ...collate(rows, graph, batchTotals(rows), 'float64'), ...float64Weights(weights, trainable) }),
        // Embedding rows of the tokens fed get a gradient; most rows get none, so check one that does.
        { alsoCheck: (name) => (name === 'model.embed_tokens.weight' ? [10 * config.hiddenSize + 3] : []) },
      );
      // Every weight the checkpoint holds is trained (a tied head is the embedding itself).
      expect(parameters.sort()).toEqual([...weights.keys()].sort());
      expect(worst).toBeLessThanOrEqual(1);
    },
  );

  test("a float32 full step reports the float64 graph's loss and gradient norm, and moves each weight as AdamW's first step does", async () => {
    const config = configOf('llama');
    const weights = tinyModelWeights(config, 5);
    const trainable = trainedWeightNames(config, FULL);
    const reference = buildTrainGraph(config, weights, { trainable, loss: sftLoss, dtype: 'float64' });
    const expected = await (
      await Runtime.create(reference.graph, { intraOpNumThreads: 1 })
    ).run({ ...collate(rows, reference, batchTotals(rows), 'float64'), ...float64Weights(weights, trainable) });
    let squares = 0;
    for (const name of trainable) for (const g of expected[gradName(name)]!.data as Float64Array) squares += g * g;

    const lr = 1e-3;
    const trainer = await LoraTrainer.create({
      config,
      weights,
      lora: makeLoraConfig(),
      train: FULL,
      schedule: { lr },
      maxGradNorm: Infinity,
      runtime: { intraOpNumThreads: 1 },
    });
    expect(trainer.trainsAdapter).toBe(false);
    const step = await trainer.trainStep(rows);
    expect(step.loss).toBeCloseTo(expected[LOSS]!.data[0] as number, 5);
    expect(step.gradNorm).toBeCloseTo(Math.sqrt(squares), 4);

    // First AdamW step: m̂ = g, v̂ = g², so each weight moves by lr·g/(|g| + ε): −lr·sign(g), 0 where g = 0.
    // Gradients near float32 rounding may differ in sign; those only must not move more than lr.
    let moved = 0;
    let worst = 0;
    for (const name of trainable) {
      const before = weights.get(name)!.data;
      const after = trainer.trainedWeights.get(name)!.data;
      const grad = expected[gradName(name)]!.data as Float64Array;
      for (let i = 0; i < before.length; i++) {
        const g = grad[i]!;
        const delta = after[i]! - before[i]!;
        if (g === 0) worst = Math.max(worst, delta === 0 ? 0 : Infinity);
        else if (Math.abs(g) > 1e-5) {
          moved++;
          worst = Math.max(worst, Math.abs(delta + lr * Math.sign(g)) / (0.01 * lr));
        } else worst = Math.max(worst, Math.abs(delta) / (1.01 * lr));
      }
    }
    expect(worst).toBeLessThanOrEqual(1);
    // The untied head trains every row; the embedding only the rows of tokens that were fed.
    expect(moved).toBeGreaterThan(config.vocabSize * config.hiddenSize);
    const embedding = trainer.trainedWeights.get('model.embed_tokens.weight')!.data;
    const row = (data: Float32Array, token: number) => data.subarray(token * 16, token * 16 + 16);
    expect(row(embedding, 100)).toEqual(row(weights.get('model.embed_tokens.weight')!.data, 100));
    expect(row(embedding, 10)).not.toEqual(row(weights.get('model.embed_tokens.weight')!.data, 10));
    // The caller's weights are the untouched starting point; modelWeights() is the trained model.
    expect(trainer.modelWeights().get('lm_head.weight')).toBe(trainer.trainedWeights.get('lm_head.weight'));
    expect(() => trainer.adapter).toThrow(/no LoRA adapter/);
    await trainer.release();
  });

  test('--train parses lora, full and subsets, and refuses nonsense', () => {
    const config = configOf('llama');
    expect(trainedWeightNames(config, parseTrainSpec('lora'))).toEqual([]);
    expect(trainedWeightNames(config, parseTrainSpec('lora,embeddings,head'))).toEqual([
      'model.embed_tokens.weight',
      'lm_head.weight',
    ]);
    // Tied: the head is the embedding.
    expect(trainedWeightNames(configOf('qwen2'), parseTrainSpec('head'))).toEqual(['model.embed_tokens.weight']);
    expect(trainedWeightNames(config, parseTrainSpec('full'))).toHaveLength(tinyModelWeights(config, 1).size);
    expect(() => parseTrainSpec('lora,full')).toThrow(/pick one/);
    expect(() => parseTrainSpec('everything')).toThrow(/unknown part 'everything'/);
  });
});
