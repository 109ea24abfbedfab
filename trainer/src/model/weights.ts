import { readModelConfig, type ModelConfig } from './config.js';
import { ModelFileError } from './errors.js';
import { expectedWeightShapes } from './layout.js';
import { readModelTensors } from './model-files.js';
import { formatShape, sameShape, type TensorMap } from './tensor.js';

/** Model weights by Hugging Face name, float32 whatever the checkpoint's dtype. */
export type WeightMap = TensorMap;

export interface LoadedModel {
  dir: string;
  config: ModelConfig;
  weights: WeightMap;
}

/**
 * Loads `config.json` and the safetensors weights of a model folder. Only expected tensors are
 * read (a tied checkpoint's redundant `lm_head.weight` or old `rotary_emb.inv_freq` buffers cost
 * nothing), and every expected tensor must be present with its exact shape.
 */
export async function loadModel(dir: string): Promise<LoadedModel> {
  const config = await readModelConfig(dir);
  const expected = expectedWeightShapes(config);
  const { tensors, fileOf, listing } = await readModelTensors(dir, { only: new Set(expected.keys()) });
  validateWeights(config, tensors, (name) => fileOf.get(name) ?? listing);
  return { dir, config, weights: tensors };
}

/** Throws naming the file and tensor for the first missing or misshapen weight. */
export function validateWeights(config: ModelConfig, weights: WeightMap, fileOf: (name: string) => string): void {
  for (const [name, shape] of expectedWeightShapes(config)) {
    const tensor = weights.get(name);
    if (!tensor)
      throw new ModelFileError(fileOf(name), `tensor ${name} is missing (expected shape ${formatShape(shape)})`, name);
    if (!sameShape(tensor.shape, shape)) {
      throw new ModelFileError(
        fileOf(name),
        `tensor ${name} has shape ${formatShape(tensor.shape)}, expected ${formatShape(shape)}`,
        name,
      );
    }
  }
}
