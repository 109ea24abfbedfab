import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelConfig } from '../../model/config.js';
import { writeTinyModel } from '../../model/tiny.js';
import { ModelTokenizer } from '../../model/tokenizer.js';
import { loadModel, type WeightMap } from '../../model/weights.js';

/** The name a trained adapter records as its base when no --model was given (as `serve` calls it). */
export const BUILT_IN_MODEL_NAME = 'tiny';

export interface TrainingModel {
  config: ModelConfig;
  weights: WeightMap;
  tokenizer: ModelTokenizer;
  /** Recorded as the adapter's base_model_name_or_path: the folder, or BUILT_IN_MODEL_NAME. */
  name: string;
}

/**
 * The model folder's config, weights and tokenizer; without a folder, the built-in tiny model
 * (seed 0), written to a temp folder, read whole and removed, so nothing is left behind.
 */
export async function loadTrainingModel(modelDir: string | undefined): Promise<TrainingModel> {
  if (modelDir) return read(modelDir, modelDir);
  const root = await mkdtemp(join(tmpdir(), 'gauntlet-tiny-'));
  try {
    const dir = join(root, BUILT_IN_MODEL_NAME);
    await writeTinyModel(dir, { seed: 0 });
    return await read(dir, BUILT_IN_MODEL_NAME);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function read(dir: string, name: string): Promise<TrainingModel> {
  const { config, weights } = await loadModel(dir);
  return { config, weights, tokenizer: await ModelTokenizer.load(dir), name };
}
