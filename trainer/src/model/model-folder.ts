import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelConfig } from './config.js';
import { modelConfigToHfJson } from './config-json.js';
import { pathExists, writeJsonFile } from './files.js';
import { SINGLE_FILE } from './model-files.js';
import { writeSafetensors } from './safetensors.js';
import type { TensorMap } from './tensor.js';

/** Everything a server needs besides config and weights; copied as-is into a written model folder. */
export const TOKENIZER_FILES = [
  'tokenizer.json',
  'tokenizer_config.json',
  'chat_template.jinja',
  'special_tokens_map.json',
  'generation_config.json',
] as const;

/** The tokenizer files a model folder has, read whole (they are small), so a copy outlives the folder. */
export async function readTokenizerFiles(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const name of TOKENIZER_FILES)
    if (await pathExists(join(dir, name))) files.set(name, await readFile(join(dir, name)));
  return files;
}

/**
 * Writes a Hugging Face model folder (model.safetensors in float32, config.json, the tokenizer
 * files) that `serve`, transformers and vLLM load. An old config.json goes first and the new one
 * comes last, each file renamed into place whole: the folder looks loadable only when complete.
 */
export async function writeModelFolder(
  dir: string,
  config: ModelConfig,
  weights: TensorMap,
  tokenizerFiles: ReadonlyMap<string, Uint8Array>,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  await rm(join(dir, 'config.json'), { force: true });
  await writeSafetensors(join(dir, SINGLE_FILE), weights, { format: 'pt' });
  for (const [name, bytes] of tokenizerFiles) {
    const temporary = join(dir, `${name}.tmp-${process.pid}`);
    await writeFile(temporary, bytes);
    await rename(temporary, join(dir, name));
  }
  await writeJsonFile(join(dir, 'config.json'), modelConfigToHfJson({ ...config, torchDtype: 'float32' }));
}
