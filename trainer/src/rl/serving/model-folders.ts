import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { mergeAdapter } from '../../lora/merge.js';
import type { WeightMap } from '../../model/weights.js';
import type { PolicyTensors } from '../../train/policy-tensors.js';
import { writeModelVersion, type ModelVersionSource } from '../publish/model-version.js';
import { versionName } from './versions.js';

export interface ModelFolderOptions {
  /** Where `<run>@v<N>/` folders go (a path external servers read). */
  dir: string;
  run: string;
  /** Folders kept: the same window the in-process server keeps, so a long run does not fill the disk. */
  keep: number;
  source: ModelVersionSource;
  /** The model before training: the weights a version does not train. */
  base: WeightMap;
  /** Recorded as the version's base model (the --model folder, or the built-in model's name). */
  baseModel: string;
  log: (line: string) => void;
}

/**
 * Writes each version of a run that trains base weights as a whole Hugging Face model folder
 * `<dir>/<run>@v<N>/` (the trained weights in place, an adapter trained beside them merged in),
 * atomically, and removes the folder that fell out of the keep window.
 */
export function modelFolderWriter(o: ModelFolderOptions): (version: number, policy: PolicyTensors) => Promise<void> {
  return async (version, policy) => {
    const name = versionName(o.run, version);
    const whole: WeightMap = new Map([...o.base].map(([n, w]) => [n, policy.weights?.get(n) ?? w]));
    const weights = policy.adapter ? mergeAdapter(whole, policy.adapter) : whole;
    const path = await writeModelVersion(o.source, weights, join(o.dir, name), {
      baseModel: o.baseModel,
      name,
      version,
      step: version,
    });
    await rm(join(o.dir, versionName(o.run, version - o.keep)), { recursive: true, force: true });
    o.log(`grpo: ${name} written to ${path}`);
  };
}
