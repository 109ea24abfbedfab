import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { LoraAdapter } from '../../../lora/adapter.js';
import { saveAdapter } from '../../../lora/peft.js';
import { ADAPTER_CONFIG_FILE } from '../../../lora/peft-config.js';
import { UsageError } from '../../command.js';

/**
 * Refuses, before any training, an --out that is a file or already holds files (unless --force):
 * a typo must not cost a run, nor overwrite a finished adapter. Nothing is created yet, so an
 * interrupted run leaves no folder behind.
 */
export async function checkAdapterOutDir(dir: string, force: boolean, command = 'sft'): Promise<void> {
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    if (error.code === 'ENOTDIR') throw new UsageError(`${command}: --out ${dir} exists and is not a folder`, 'out');
    throw error;
  });
  if (entries.length > 0 && !force)
    throw new UsageError(`${command}: --out ${dir} is not empty (pass --force to overwrite the adapter there)`, 'out');
}

/**
 * Writes a PEFT folder that is never half old, half new: an old config is removed first, then the
 * weights and finally the config are each renamed into place whole (saveAdapter's order), so the
 * folder looks loadable only once both new files are there.
 */
export async function writeAdapterFolder(dir: string, adapter: LoraAdapter, baseModel: string): Promise<void> {
  await rm(join(dir, ADAPTER_CONFIG_FILE), { force: true });
  await saveAdapter(dir, adapter, { baseModelNameOrPath: baseModel });
}
