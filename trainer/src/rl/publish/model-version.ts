import { join } from 'node:path';
import type { ModelConfig } from '../../model/config.js';
import { writeJsonFile } from '../../model/files.js';
import { writeModelFolder } from '../../model/model-folder.js';
import type { WeightMap } from '../../model/weights.js';
import { VERSION_FILE, type AdapterVersionMeta } from './adapter-version.js';
import { writeFolderAtomically } from './atomic-folder.js';

/** The model a version is written from: its config, tokenizer files, and the whole weight set as it stands. */
export interface ModelVersionSource {
  config: ModelConfig;
  tokenizerFiles: ReadonlyMap<string, Uint8Array>;
}

/**
 * Writes one version of a full-parameter run as a Hugging Face model folder (model.safetensors,
 * config.json, tokenizer files, and our provenance file, which loaders ignore) that appears
 * whole or not at all: an external server is pointed at it, never at a half-written one.
 */
export async function writeModelVersion(
  source: ModelVersionSource,
  weights: WeightMap,
  dir: string,
  meta: AdapterVersionMeta,
): Promise<string> {
  return writeFolderAtomically(dir, async (temporary) => {
    await writeModelFolder(temporary, source.config, weights, source.tokenizerFiles);
    await writeJsonFile(join(temporary, VERSION_FILE), { ...meta, written: new Date().toISOString() });
  });
}
