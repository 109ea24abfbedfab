import type { ModelConfig } from '../../src/model/config.js';
import { tinyModelConfig, tinyModelWeights, type TinyModelOptions } from '../../src/model/tiny.js';
import type { WeightMap } from '../../src/model/weights.js';
import type { Tensor } from '../../src/model/tensor.js';
import type { LoraAdapter } from '../../src/lora/adapter.js';
import { createRng } from '../../src/model/random.js';

/** A tiny model in memory (no files), small enough for the float64 reference to run in milliseconds. */
export function tinyModel(options: TinyModelOptions = {}): { config: ModelConfig; weights: WeightMap } {
  const config = tinyModelConfig({ hiddenSize: 32, intermediateSize: 48, numHeads: 4, numKvHeads: 2, ...options });
  return { config, weights: tinyModelWeights(config, options.seed ?? 0) };
}

/**
 * Gives every B factor seeded values 0.05 · N(0, 1), so the adapter changes the logits (fresh
 * adapters have B = 0). fixtures/hf-golden/make-inputs.mjs applies the same rule.
 */
export function withRandomB<T extends LoraAdapter>(adapter: T, seed: number): T {
  const rng = createRng(seed);
  for (const { b } of adapter.modules.values()) b.data.forEach((_, i) => (b.data[i] = 0.05 * rng.normal()));
  return adapter;
}

export function maxAbsDiff(a: ArrayLike<number>[], b: ArrayLike<number>[]): number {
  let max = 0;
  a.forEach((row, t) => {
    for (let i = 0; i < row.length; i++) max = Math.max(max, Math.abs(row[i]! - b[t]![i]!));
  });
  return max;
}

export function scaled(tensor: Tensor, factor: number): Tensor {
  return { shape: [...tensor.shape], data: tensor.data.map((v) => v * factor) };
}
