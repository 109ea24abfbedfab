import { randomBytes } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { LoraAdapter } from '../../lora/adapter.js';
import { ADAPTER_WEIGHTS_FILE, saveAdapter } from '../../lora/peft.js';
import { ADAPTER_CONFIG_FILE } from '../../lora/peft-config.js';
import { writeJsonFile } from '../../model/files.js';
import { exists, flush } from '../durable.js';

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
  const target = resolve(dir);
  const temporary = join(dirname(target), `.${basename(target)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await saveAdapter(temporary, adapter, { baseModelNameOrPath: meta.baseModel });
    await writeJsonFile(join(temporary, VERSION_FILE), { ...meta, written: new Date().toISOString() });
    for (const file of [ADAPTER_WEIGHTS_FILE, ADAPTER_CONFIG_FILE, VERSION_FILE]) await flush(join(temporary, file));
    await flush(temporary);
    if (await exists(target)) {
      const old = `${temporary}.old`;
      await rename(target, old);
      await rename(temporary, target);
      await rm(old, { recursive: true, force: true });
    } else {
      await rename(temporary, target);
    }
    await flush(dirname(target));
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    throw error;
  }
  return target;
}
