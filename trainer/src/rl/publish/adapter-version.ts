import { join } from 'node:path';
import type { LoraAdapter } from '../../lora/adapter.js';
import { saveAdapter } from '../../lora/peft.js';
import { writeJsonFile } from '../../model/files.js';
import { writeFolderAtomically } from './atomic-folder.js';

/** Provenance written beside the PEFT files (PEFT and vLLM ignore it). */
export const VERSION_FILE = 'gauntlet_version.json';

export interface AdapterVersionMeta {
  /** `base_model_name_or_path`: the model folder or hub id the servers run (never a temporary copy). */
  baseModel: string;
  /** The name servers know it by (`<run>@v<N>`). */
  name?: string;
  version?: number;
  step?: number;
}

/**
 * Writes one adapter version as a PEFT folder that appears whole or not at all: the files are
 * written and flushed in a sibling temporary folder, which is then renamed to `dir`. A folder
 * already there (a version rewritten after a resume) is replaced, never merged with.
 */
export async function writeAdapterVersion(
  adapter: LoraAdapter,
  dir: string,
  meta: AdapterVersionMeta,
): Promise<string> {
  if (typeof meta.baseModel !== 'string' || meta.baseModel.trim() === '')
    throw new RangeError('writeAdapterVersion: meta.baseModel (the model the servers run) is required');
  return writeFolderAtomically(dir, async (temporary) => {
    await saveAdapter(temporary, adapter, { baseModelNameOrPath: meta.baseModel });
    await writeJsonFile(join(temporary, VERSION_FILE), { ...meta, written: new Date().toISOString() });
  });
}
