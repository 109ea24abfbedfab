import { expect, test } from 'vitest';
import { compareGradients, numericGradient } from '../../src/engine/gradcheck.js';
import type { HostTensor } from '../../src/engine/host-tensor.js';
import { seededRandom } from '../../src/engine/random.js';
import { Runtime } from '../../src/engine/runtime.js';
import { initLoraAdapter } from '../../src/lora/adapter.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import { createRng } from '../../src/model/random.js';
import { tinyModelConfig, tinyModelWeights } from '../../src/model/tiny.js';
import { adapterFeeds } from '../../src/graph/graph.js';
import { batchTotals, collate, type TrainSequence } from '../../src/train/batch.js';
import { sftLoss } from '../../src/train/loss.js';
import { buildTrainGraph, gradName, LOSS } from '../../src/train/train-graph.js';

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
    const options = { lora, loss: sftLoss, temperature: 0.8, dtype: 'float64' as const };
    const withGrads = buildTrainGraph(config, weights, options);
    const lossOnly = buildTrainGraph(config, weights, { ...options, withGradients: false });
    const feeds: Record<string, HostTensor> = {
      ...collate(rows, withGrads, batchTotals(rows), 'float64'),
      ...adapterFeeds(adapter, 'float64'),
    };
    const analytic = await (await Runtime.create(withGrads.graph, { intraOpNumThreads: 1 })).run(feeds);
    const forward = await Runtime.create(lossOnly.graph, { intraOpNumThreads: 1 });
    const loss = async (f: Record<string, HostTensor>) => (await forward.run(f))[LOSS]!.data[0] as number;
    const pick = seededRandom(8);
    let worst = 0;
    for (const name of withGrads.parameters) {
      const n = feeds[name]!.data.length;
      const indices = [...new Set(Array.from({ length: 4 }, () => Math.floor(pick() * n)))];
      const numeric = await numericGradient(loss, feeds, name, indices, 1e-6);
      const diff = compareGradients(name, analytic[gradName(name)]!.data as Float64Array, indices, numeric, {
        atol: 1e-7,
        rtol: 1e-5,
      });
      console.log(
        `${architecture} ${name}: max|Δ| = ${diff.maxAbsDiff.toExponential(2)} (max|grad| ${diff.maxAbsGrad.toExponential(2)})`,
      );
      worst = Math.max(worst, diff.worstRatio);
    }
    expect(withGrads.parameters).toHaveLength(2 * lora.targets.length * 2);
    expect(worst).toBeLessThanOrEqual(1);
    await forward.release();
  },
);
