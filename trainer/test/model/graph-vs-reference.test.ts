import { describe, expect, test } from 'vitest';
import { Runtime } from '../../src/engine/runtime.js';
import { initLoraAdapter } from '../../src/lora/adapter.js';
import { makeLoraConfig, type LoraTarget } from '../../src/lora/config.js';
import type { Architecture, ModelConfig } from '../../src/model/config.js';
import { adapterFeeds, buildModelGraph } from '../../src/graph/graph.js';
import { batchFeeds, padBatch } from '../../src/graph/graph-feeds.js';
import { createRng } from '../../src/model/random.js';
import { referenceLogits } from '../support/reference-forward.js';
import { tinyModel } from '../support/tiny-models.js';

const tokens = [257, 72, 105, 32, 240, 159, 140, 141, 258, 10];
const LLAMA3 = {
  type: 'llama3',
  factor: 8,
  lowFreqFactor: 1,
  highFreqFactor: 4,
  originalMaxPositionEmbeddings: 8,
} as const;

// The graph stacks the LoRA A factors of the adapted modules among q/k/v (and gate/up) into one
// MatMul; the partial-target cases stack some, or leave one alone.
const cases: [string, Architecture, Partial<ModelConfig>, LoraTarget[]?][] = [
  ['llama', 'llama', {}],
  ['qwen2 (qkv bias)', 'qwen2', {}],
  ['qwen3 (QK-norm)', 'qwen3', {}],
  ['llama, rope theta 500000 + llama3 scaling', 'llama', { ropeTheta: 500_000, ropeScaling: LLAMA3 }],
  ['llama, linear rope scaling', 'llama', { ropeScaling: { type: 'linear', factor: 4 } }],
  ['qwen2, LoRA on q, v, up only', 'qwen2', {}, ['q_proj', 'v_proj', 'up_proj']],
  ['qwen3, LoRA on k, gate, down only', 'qwen3', {}, ['k_proj', 'gate_proj', 'down_proj']],
];

describe.each(cases)('ONNX forward vs the plain reference: %s', (_label, architecture, overrides, targets) => {
  const base = tinyModel({ architecture, seed: 11, ...(architecture === 'qwen3' ? { headDim: 16 } : {}) });
  const model = { config: { ...base.config, ...overrides }, weights: base.weights };
  const lora = makeLoraConfig({
    rank: 4,
    alpha: 8,
    useRslora: architecture === 'qwen3',
    ...(targets ? { targets } : {}),
  });
  const adapter = initLoraAdapter(model.config, lora, 3);
  const rng = createRng(5);
  for (const m of adapter.modules.values())
    for (let i = 0; i < m.b.data.length; i++) m.b.data[i] = rng.uniform(-0.2, 0.2);

  test.each([
    ['float32', false],
    ['float64', false],
    ['float32', true],
  ] as const)('%s logits agree (adapter: %s)', async (dtype, withAdapter) => {
    const graph = buildModelGraph(model.config, model.weights, { dtype, ...(withAdapter ? { lora } : {}) });
    graph.graph.output(graph.logits, 'logits');
    const runtime = await Runtime.create(graph.graph, { intraOpNumThreads: 1 });
    const feeds = { ...batchFeeds(padBatch([tokens], 0)), ...(withAdapter ? adapterFeeds(adapter, dtype) : {}) };
    const logits = (await runtime.run(feeds))['logits']!.data as Float32Array | Float64Array;
    const reference = referenceLogits(model, tokens, withAdapter ? { adapter } : {});
    let diff = 0;
    reference.forEach((row, t) =>
      row.forEach((v, i) => (diff = Math.max(diff, Math.abs(v - logits[t * row.length + i]!)))),
    );
    console.log(`${_label} ${dtype}${withAdapter ? ' + LoRA' : ''}: max|Δlogit| = ${diff.toExponential(2)}`);
    expect(diff).toBeLessThan(dtype === 'float64' ? 1e-10 : 1e-4);
    await runtime.release();
  });
});
