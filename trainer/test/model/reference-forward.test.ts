import { describe, expect, it } from 'vitest';
import { initLoraAdapter } from '../../src/lora/adapter.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import type { Architecture } from '../../src/model/config.js';
import type { Tensor } from '../../src/model/tensor.js';
import { referenceLogits } from '../support/reference-forward.js';
import { maxAbsDiff, scaled, tinyModel } from '../support/tiny-models.js';

const ARCHITECTURES: Architecture[] = ['llama', 'qwen2', 'qwen3'];
const tokens = [257, 72, 105, 32, 240, 159, 140, 141, 258, 10];

describe.each(ARCHITECTURES)('reference forward (%s)', (architecture) => {
  const model = tinyModel({ architecture, seed: 11 });

  it('returns one finite, non-constant row of vocabulary logits per token', () => {
    const logits = referenceLogits(model, tokens);
    expect(logits).toHaveLength(tokens.length);
    for (const row of logits) {
      expect(row).toHaveLength(model.config.vocabSize);
      expect(row.every(Number.isFinite)).toBe(true);
      expect(Math.max(...row) - Math.min(...row)).toBeGreaterThan(1e-3);
    }
  });

  it('is causal: changing a later token leaves earlier logits untouched', () => {
    const original = referenceLogits(model, tokens);
    const changed = referenceLogits(model, [...tokens.slice(0, 6), 42, ...tokens.slice(7)]);
    expect(maxAbsDiff(original.slice(0, 6), changed.slice(0, 6))).toBe(0);
    expect(maxAbsDiff(original.slice(6), changed.slice(6))).toBeGreaterThan(1e-4);
  });

  it('depends on relative positions only (RoPE): shifting every position changes nothing', () => {
    const shifted = referenceLogits(model, tokens, { positions: tokens.map((_, t) => t + 37) });
    expect(maxAbsDiff(referenceLogits(model, tokens), shifted)).toBeLessThan(1e-12);
  });

  it('gives the same logits with GQA as with MHA whose key/value heads repeat the shared ones', () => {
    const { config, weights } = model;
    const mhaConfig = { ...config, numKvHeads: config.numHeads };
    const mhaWeights = new Map(weights);
    const perKv = config.numHeads / config.numKvHeads;
    for (let layer = 0; layer < config.numLayers; layer++) {
      for (const name of ['k_proj.weight', 'v_proj.weight', 'k_proj.bias', 'v_proj.bias']) {
        const key = `model.layers.${layer}.self_attn.${name}`;
        const tensor = weights.get(key);
        if (tensor) mhaWeights.set(key, repeatHeads(tensor, config.headDim, perKv));
      }
    }
    expect(
      maxAbsDiff(referenceLogits(model, tokens), referenceLogits({ config: mhaConfig, weights: mhaWeights }, tokens)),
    ).toBeLessThan(1e-12);
  });

  it('gives the same logits tied as untied with lm_head equal to the embedding', () => {
    const { config, weights } = model;
    const embedding = weights.get('model.embed_tokens.weight')!;
    const tied = { config: { ...config, tieWordEmbeddings: true }, weights };
    const untied = {
      config: { ...config, tieWordEmbeddings: false },
      weights: new Map(weights).set('lm_head.weight', embedding),
    };
    expect(maxAbsDiff(referenceLogits(tied, tokens), referenceLogits(untied, tokens))).toBe(0);
  });

  it('gives base logits with a fresh LoRA adapter (B = 0)', () => {
    const adapter = initLoraAdapter(model.config, makeLoraConfig({ rank: 4, alpha: 8 }), 3);
    expect(maxAbsDiff(referenceLogits(model, tokens), referenceLogits(model, tokens, { adapter }))).toBe(0);
  });
});

describe('architecture specifics in the reference forward', () => {
  it('Qwen2 biases enter the q/k/v projections (zero biases equal no biases)', () => {
    const { config, weights } = tinyModel({ architecture: 'qwen2', seed: 2 });
    const zeroed = new Map([...weights].map(([name, t]) => [name, name.endsWith('.bias') ? scaled(t, 0) : t]));
    const noBias = new Map([...weights].filter(([name]) => !name.endsWith('.bias')));
    const withZeroBias = referenceLogits({ config, weights: zeroed }, tokens);
    expect(
      maxAbsDiff(
        withZeroBias,
        referenceLogits({ config: { ...config, attentionBias: false }, weights: noBias }, tokens),
      ),
    ).toBe(0);
    expect(maxAbsDiff(withZeroBias, referenceLogits({ config, weights }, tokens))).toBeGreaterThan(1e-5);
  });

  // Only ε keeps the normalised heads from being exactly scale-free: 1e-5 vs 5e-2 without the norm.
  it('Qwen3 normalises q and k per head, so scaling q_proj/k_proj barely matters; without q/k norm it does', () => {
    const scaleQK = (weights: Map<string, Tensor>) =>
      new Map([...weights].map(([name, t]) => [name, /self_attn\.[qk]_proj\.weight$/.test(name) ? scaled(t, 5) : t]));
    const qwen3 = tinyModel({ architecture: 'qwen3', seed: 4 });
    expect(
      maxAbsDiff(
        referenceLogits(qwen3, tokens),
        referenceLogits({ ...qwen3, weights: scaleQK(qwen3.weights) }, tokens),
      ),
    ).toBeLessThan(1e-4);
    const llama = tinyModel({ architecture: 'llama', seed: 4 });
    expect(
      maxAbsDiff(
        referenceLogits(llama, tokens),
        referenceLogits({ ...llama, weights: scaleQK(llama.weights) }, tokens),
      ),
    ).toBeGreaterThan(1e-2);
  });

  it('applies the config RoPE scaling (linear factor f at position p·f equals unscaled at p)', () => {
    const model = tinyModel({ architecture: 'llama', seed: 9 });
    const linear = { ...model, config: { ...model.config, ropeScaling: { type: 'linear' as const, factor: 4 } } };
    const positions = tokens.map((_, t) => 4 * t);
    expect(maxAbsDiff(referenceLogits(model, tokens), referenceLogits(linear, tokens, { positions }))).toBeLessThan(
      1e-12,
    );
  });
});

/** [kvHeads·headDim, …] → [kvHeads·perKv·headDim, …], each kv head's rows repeated perKv times (repeat_kv). */
function repeatHeads(tensor: Tensor, headDim: number, perKv: number): Tensor {
  const rowWidth = tensor.shape.length === 2 ? tensor.shape[1]! : 1;
  const heads = tensor.shape[0]! / headDim;
  const block = headDim * rowWidth;
  const data = new Float32Array(tensor.data.length * perKv);
  for (let h = 0; h < heads; h++) {
    for (let r = 0; r < perKv; r++) data.set(tensor.data.subarray(h * block, (h + 1) * block), (h * perKv + r) * block);
  }
  return { shape: [tensor.shape[0]! * perKv, ...tensor.shape.slice(1)], data };
}
