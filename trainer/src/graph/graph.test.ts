import { describe, expect, test } from 'vitest';
import { initLoraAdapter, type LoraAdapter } from '../lora/adapter.js';
import { makeLoraConfig } from '../lora/config.js';
import { mergeAdapter } from '../lora/merge.js';
import { createRng } from '../model/random.js';
import type { Architecture } from '../model/config.js';
import { buildModelGraph, loraInputNames } from './graph.js';
import { ModelRunner } from './graph-runner.js';
import { tinyModelConfig, tinyModelWeights } from '../model/tiny.js';

const tiny = (architecture: Architecture, extra = {}) => {
  const config = tinyModelConfig({ architecture, hiddenSize: 32, numHeads: 4, numKvHeads: 2, numLayers: 2, ...extra });
  return { config, weights: tinyModelWeights(config, 1) };
};

function randomize(adapter: LoraAdapter, seed: number): LoraAdapter {
  const rng = createRng(seed);
  for (const m of adapter.modules.values())
    for (let i = 0; i < m.b.data.length; i++) m.b.data[i] = rng.uniform(-0.5, 0.5);
  return adapter;
}

function maxDiff(a: Float32Array, b: Float32Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

const runtime = { intraOpNumThreads: 1 };

describe('Llama-family forward graph', () => {
  test.each([
    ['llama', { tieWordEmbeddings: false }],
    ['qwen2', {}],
    ['qwen3', { headDim: 16 }],
  ] as const)('%s: a padded batch gives each sequence the logits it gets alone', async (arch, extra) => {
    const { config, weights } = tiny(arch, extra);
    const runner = await ModelRunner.create(config, weights, { runtime });
    const short = [5, 6, 7];
    const long = [1, 2, 3, 4, 5, 6];
    const alone = await runner.logits([short]);
    const batched = await runner.logits([long, short]);
    const v = config.vocabSize;
    expect(batched.dims).toEqual([2, 6, v]);
    const rowOfShort = batched.data.subarray(6 * v, 6 * v + 3 * v);
    expect(maxDiff(alone.data, rowOfShort)).toBeLessThan(1e-5);
    expect(alone.data.every(Number.isFinite)).toBe(true);
    await runner.release();
  });

  test.each([false, true])('LoRA inputs on all seven modules match merged weights (rsLoRA %s)', async (useRslora) => {
    const { config, weights } = tiny('qwen2');
    const lora = makeLoraConfig({ rank: 4, alpha: 8, useRslora });
    const adapter = randomize(initLoraAdapter(config, lora, 3), 4);
    const adapted = await ModelRunner.create(config, weights, { lora, runtime });
    const merged = await ModelRunner.create(config, mergeAdapter(weights, adapter), { runtime });
    const ids = [[3, 1, 4, 1, 5, 9, 2, 6]];
    const viaInputs = await adapted.logits(ids, adapter);
    const viaMerge = await merged.logits(ids);
    const base = await adapted.logits(ids);
    const diff = maxDiff(viaInputs.data, viaMerge.data);
    console.log(`LoRA (rsLoRA ${useRslora}) inputs vs merged: max|Δlogit| = ${diff.toExponential(2)}`);
    expect(diff).toBeLessThan(1e-4);
    expect(maxDiff(viaInputs.data, base.data)).toBeGreaterThan(1e-3);
    await adapted.release();
    await merged.release();
  });

  test('a subset of targets adds inputs only for those modules', () => {
    const { config, weights } = tiny('llama');
    const model = buildModelGraph(config, weights, {
      lora: makeLoraConfig({ rank: 2, targets: ['down_proj', 'q_proj'] }),
    });
    expect(model.graph.inputs.map((t) => t.name).filter((n) => n.includes('lora'))).toEqual([
      loraInputNames('model.layers.0.self_attn.q_proj').a,
      loraInputNames('model.layers.0.self_attn.q_proj').b,
      loraInputNames('model.layers.0.mlp.down_proj').a,
      loraInputNames('model.layers.0.mlp.down_proj').b,
      loraInputNames('model.layers.1.self_attn.q_proj').a,
      loraInputNames('model.layers.1.self_attn.q_proj').b,
      loraInputNames('model.layers.1.mlp.down_proj').a,
      loraInputNames('model.layers.1.mlp.down_proj').b,
    ]);
    expect(model.logits.shape).toEqual(['batch', 'seq', config.vocabSize]);
  });

  test('a missing weight names the tensor', () => {
    const { config, weights } = tiny('qwen3', { headDim: 16 });
    weights.delete('model.layers.1.self_attn.k_norm.weight');
    expect(() => buildModelGraph(config, weights)).toThrow(
      /tensor model\.layers\.1\.self_attn\.k_norm\.weight is missing/,
    );
  });
});
