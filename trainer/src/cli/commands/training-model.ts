import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelConfig } from '../../model/config.js';
import type { TensorMap } from '../../model/tensor.js';
import { BUILTIN_TINY_MODEL_NAME, writeTinyModel } from '../../model/tiny.js';
import { ModelTokenizer } from '../../model/tokenizer.js';
import { loadModel } from '../../model/weights.js';
import { readTokenizerFiles } from '../../model/model-folder.js';

/** What a training command (sft, dpo) trains: the model in memory, its tokenizer, and the name an adapter records as its base. */
export interface TrainingModel {
  config: ModelConfig;
  weights: TensorMap;
  tokenizer: ModelTokenizer;
  /** The --model folder, or the built-in model's name (its temp folder is gone by then). */
  baseModel: string;
  /** The folder's tokenizer files, read whole: a trained model folder is written with them. */
  tokenizerFiles: Map<string, Buffer>;
}

/**
 * Loads --model, or writes the built-in tiny model to a temp folder, reads it whole and removes
 * the folder at once (as `serve` does): a run leaves nothing behind, whatever way it ends.
 * `announce` is told which model a run without --model trains.
 */
export async function loadTrainingModel(
  modelDir: string | undefined,
  announce: (line: string) => void = () => {},
): Promise<TrainingModel> {
  if (modelDir !== undefined) return { ...(await loadFrom(modelDir)), baseModel: modelDir };
  const root = await mkdtemp(join(tmpdir(), 'gauntlet-tiny-'));
  try {
    const dir = join(root, BUILTIN_TINY_MODEL_NAME);
    await writeTinyModel(dir, { seed: 0 });
    announce(
      `no --model given, so training the built-in tiny model (qwen2, seed 0), recorded as base model "${BUILTIN_TINY_MODEL_NAME}"; 'gauntlet-trainer init-tiny DIR' writes the same model`,
    );
    return { ...(await loadFrom(dir)), baseModel: BUILTIN_TINY_MODEL_NAME };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function loadFrom(dir: string): Promise<Omit<TrainingModel, 'baseModel'>> {
  const { config, weights } = await loadModel(dir);
  return { config, weights, tokenizer: await ModelTokenizer.load(dir), tokenizerFiles: await readTokenizerFiles(dir) };
}
