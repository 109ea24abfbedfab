import { expect, test } from 'vitest';
import { initLoraAdapter } from '../../src/lora/adapter.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import { createRng } from '../../src/model/random.js';
import { tinyModelConfig, tinyModelWeights } from '../../src/model/tiny.js';
import { adapterFeeds } from '../../src/graph/graph.js';
import { batchTotals, collate, type TrainSequence } from '../../src/train/batch.js';
import { sftLoss } from '../../src/train/loss.js';
import { checkTrainGradients } from '../support/train-gradcheck.js';

/**
 * The whole model against finite differences, in float64: the LoRA gradients the training graph
 * outputs vs central differences of its loss, a few sampled entries per adapter tensor.
 */
// All seven targets stack three A factors for q/k/v and two for gate/up; the qwen2 subset stacks q and v, and leaves up alone.
test.each([
  ['qwen3', undefined],
  ['llama', undefined],
  ['qwen2', ['q_proj', 'v_proj', 'up_proj']],
] as const)(
  '%s: LoRA gradients of a tiny model match finite differences (targets %j)',
  async (architecture, targets) => {
    const config = tinyModelConfig({
      architecture,
      hiddenSize: 16,
      numHeads: 4,
      numKvHeads: 2,
      numLayers: 2,
      intermediateSize: 24,
      headDim: 8,
      tieWordEmbeddings: architecture !== 'llama',
    });
    const weights = tinyModelWeights(config, 5);
    const lora = makeLoraConfig({
      rank: 2,
      alpha: 4,
      useRslora: architecture === 'llama',
      ...(targets ? { targets: [...targets] } : {}),
    });
    const adapter = initLoraAdapter(config, lora, 6);
    const rng = createRng(7);
    for (const m of adapter.modules.values())
      for (let i = 0; i < m.b.data.length; i++) m.b.data[i] = rng.uniform(-0.3, 0.3);
    const rows: TrainSequence[] = [
      { tokens: [3, 10, 200, 7, 9], mask: [0, 0, 1, 1, 1] },
      { tokens: [5, 6, 42], mask: [0, 1, 1] },
    ];
    const { worst, parameters } = await checkTrainGradients(
      config,
      weights,
      { lora, loss: sftLoss, temperature: 0.8 },
      (graph) => ({ ...collate(rows, graph, batchTotals(rows), 'float64'), ...adapterFeeds(adapter, 'float64') }),
      {
        entries: 4,
        onWeight: (name, diff) =>
          console.log(
            `${architecture} ${name}: max|Δ| = ${diff.maxAbsDiff.toExponential(2)} (max|grad| ${diff.maxAbsGrad.toExponential(2)})`,
          ),
      },
    );
    expect(parameters).toHaveLength(2 * lora.targets.length * 2);
    expect(worst).toBeLessThanOrEqual(1);
  },
);
