import { realpath } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import { ADAPTER_CONFIG_FILE } from '../lora/peft-config.js';
import { ADAPTER_WEIGHTS_FILE } from '../lora/peft.js';
import { AdapterTensorError } from '../lora/factor-checks.js';
import { ModelFileError } from '../model/errors.js';
import { NotRegularFileError } from '../model/files.js';
import { BadRequestError } from './http-errors.js';

/**
 * The folders runtime `load_lora_adapter` calls may read from. Every path is resolved to its real
 * path (symlinks followed) before the check, the adapter folder and each file read from it, so a
 * link inside a root cannot point outside it. Replies say what is wrong without naming paths.
 */
export class AdapterRoots {
  private constructor(readonly roots: readonly string[]) {}

  /** No roots: runtime loading is off. */
  static readonly none = new AdapterRoots([]);

  /** Real paths of the given folders; a root that does not exist is the operator's mistake, said at start. */
  static async resolve(folders: readonly string[]): Promise<AdapterRoots> {
    const roots = await Promise.all(
      folders.map(async (folder) => {
        try {
          return await realpath(resolve(folder));
        } catch {
          throw new ModelFileError(folder, 'adapter root folder not found');
        }
      }),
    );
    return new AdapterRoots([...new Set(roots)]);
  }

  /** The real path of a requested adapter folder, after checking it and the files the loader reads all lie inside a root. */
  async check(path: string): Promise<string> {
    if (this.roots.length === 0) {
      throw new BadRequestError(
        'loading adapters at runtime is off on this server: start it with --adapter-root DIR (or --adapter NAME=DIR)',
        'lora_path',
      );
    }
    const folder = await this.within(path, 'lora_path does not exist or cannot be read');
    for (const file of [ADAPTER_CONFIG_FILE, ADAPTER_WEIGHTS_FILE])
      await this.within(join(folder, file), `lora_path holds no readable ${file}`);
    return folder;
  }

  private async within(path: string, missing: string): Promise<string> {
    let real: string;
    try {
      real = await realpath(resolve(path));
    } catch {
      throw new BadRequestError(missing, 'lora_path');
    }
    if (!this.roots.some((root) => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep))) {
      throw new BadRequestError(
        'lora_path is outside the folders this server loads adapters from (--adapter-root)',
        'lora_path',
      );
    }
    return real;
  }
}

/**
 * A loader failure in words that quote nothing from the files (a file that is not an adapter
 * could be anything): which file, for adapter_config.json which field, and for a factor that
 * cannot be served (non-finite, or a shape that does not fit) which tensor and why. The full message goes
 * to the server's log.
 */
export function describeLoadFailure(error: unknown): string {
  if (error instanceof ModelFileError) {
    const file = basename(error.file);
    if (error instanceof NotRegularFileError) return `${file} is not a regular file`;
    // Its key matched PEFT's key pattern and the rest is numbers: nothing of the file's own text.
    if (error instanceof AdapterTensorError) return `${file}: tensor ${error.key}: ${error.problem}`;
    const field = error.details?.['field'];
    if (file === ADAPTER_CONFIG_FILE && typeof field === 'string' && /^[\w.]{1,64}$/.test(field))
      return `${file}: the field ${field} is missing or invalid`;
    if (file === ADAPTER_CONFIG_FILE) return `${file} is not a JSON object of PEFT LoRA settings`;
    if (file === ADAPTER_WEIGHTS_FILE) return `${file} is not a safetensors file of LoRA factors that fit this model`;
  }
  return 'the adapter files cannot be read as a PEFT LoRA adapter for this model';
}
