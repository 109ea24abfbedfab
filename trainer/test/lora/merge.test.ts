import { describe, expect, it } from 'vitest';
import { initLoraAdapter } from '../../src/lora/adapter.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import { mergeAdapter } from '../../src/lora/merge.js';
import { createRng } from '../../src/model/random.js';
import { referenceLogits } from '../support/reference-forward.js';
import { maxAbsDiff, tinyModel } from '../support/tiny-models.js';

const tokens = [257, 117, 115, 101, 114, 10, 104, 105, 258];

describe.each(['llama', 'qwen2', 'qwen3'] as const)('mergeAdapter (%s)', (architecture) => {
  const model = tinyModel({ architecture, seed: 21 });

  it.each([false, true])('merged weights give the logits of base + adapter (rsLoRA %s)', (useRslora) => {
    const adapter = initLoraAdapter(model.config, makeLoraConfig({ rank: 4, alpha: 8, useRslora }), 5);
    const rng = createRng(6);
    for (const { b } of adapter.modules.values()) b.data.forEach((_, i) => (b.data[i] = 0.05 * rng.normal()));
    const withAdapter = referenceLogits(model, tokens, { adapter });
    const merged = referenceLogits({ config: model.config, weights: mergeAdapter(model.weights, adapter) }, tokens);
    expect(maxAbsDiff(withAdapter, referenceLogits(model, tokens))).toBeGreaterThan(1e-3);
    // Merged weights are rounded to float32; the adapter path is float64 throughout.
    expect(maxAbsDiff(withAdapter, merged)).toBeLessThan(1e-5);
  });

  it('leaves the input weights untouched and shares the tensors it does not adapt', () => {
    const adapter = initLoraAdapter(model.config, makeLoraConfig({ rank: 2, targets: ['q_proj'] }), 5);
    adapter.modules.forEach(({ b }) => b.data.fill(1));
    const before = Float32Array.from(model.weights.get('model.layers.0.self_attn.q_proj.weight')!.data);
    const merged = mergeAdapter(model.weights, adapter);
    expect(model.weights.get('model.layers.0.self_attn.q_proj.weight')!.data).toEqual(before);
    expect(merged.get('model.layers.0.self_attn.q_proj.weight')!.data).not.toEqual(before);
    expect(merged.get('model.layers.0.mlp.up_proj.weight')).toBe(
      model.weights.get('model.layers.0.mlp.up_proj.weight'),
    );
  });
});

describe('mergeAdapter errors', () => {
  it('names the adapter file and module that does not fit', () => {
    const model = tinyModel({ architecture: 'llama' });
    const adapter = {
      ...initLoraAdapter(
        { ...model.config, hiddenSize: 64, headDim: 8 },
        makeLoraConfig({ rank: 2, targets: ['up_proj'] }),
        0,
      ),
      source: '/a/adapter_model.safetensors',
    };
    expect(() => mergeAdapter(model.weights, adapter)).toThrow(
      '/a/adapter_model.safetensors: cannot merge model.layers.0.mlp.up_proj: A [2, 64] and B [48, 2] do not fit weight [48, 32]',
    );
  });
});
