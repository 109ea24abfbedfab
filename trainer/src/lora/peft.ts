import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelConfig } from '../model/config.js';
import { ModelFileError } from '../model/errors.js';
import { writeJsonFile } from '../model/files.js';
import { JsonObjectReader } from '../model/json-reader.js';
import { linearModulePath, LINEAR_MODULES, type LinearModule } from '../model/layout.js';
import { readSafetensors, writeSafetensors } from '../model/safetensors.js';
import type { Tensor, TensorMap } from '../model/tensor.js';
import { validateAdapter, type LoraAdapter, type LoraModule } from './adapter.js';
import { checkFactorHeader, checkFactorValues } from './factor-checks.js';
import { ADAPTER_CONFIG_FILE, parsePeftAdapterConfig, peftAdapterConfigJson } from './peft-config.js';

export const ADAPTER_WEIGHTS_FILE = 'adapter_model.safetensors';

export type LoraFactor = 'lora_A' | 'lora_B';

/** PEFT's state-dict key: `base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight`. */
export function peftTensorKey(modulePath: string, factor: LoraFactor): string {
  return `base_model.model.${modulePath}.${factor}.weight`;
}

export interface SaveAdapterOptions {
  /** Recorded as `base_model_name_or_path` (a hub id or a path vLLM/PEFT can resolve). */
  baseModelNameOrPath?: string | null;
}

/** Writes `adapter_config.json` + `adapter_model.safetensors` (float32, metadata {"format": "pt"}). */
export async function saveAdapter(dir: string, adapter: LoraAdapter, options: SaveAdapterOptions = {}): Promise<void> {
  const tensors: TensorMap = new Map();
  for (const [path, { a, b }] of adapter.modules) {
    tensors.set(peftTensorKey(path, 'lora_A'), a);
    tensors.set(peftTensorKey(path, 'lora_B'), b);
  }
  await mkdir(dir, { recursive: true });
  await writeSafetensors(join(dir, ADAPTER_WEIGHTS_FILE), tensors, { format: 'pt' });
  // The config goes last: a folder with a config but no weights would look loadable.
  await writeJsonFile(
    join(dir, ADAPTER_CONFIG_FILE),
    peftAdapterConfigJson(adapter.config, options.baseModelNameOrPath ?? null),
  );
}

export interface LoadedAdapter extends LoraAdapter {
  baseModelNameOrPath: string | null;
  source: string;
}

/**
 * Reads a PEFT LoRA folder. With `model`, every module must fit that model's shapes; without it,
 * the adapter must still be complete (every target in every layer present, A and B of rank r).
 * Shapes are checked from the header before any data is read, and every value must be finite and
 * within float16's range (factor-checks.ts); files that are not regular files are refused unopened.
 */
export async function loadAdapter(dir: string, options: { model?: ModelConfig } = {}): Promise<LoadedAdapter> {
  const { lora, baseModelNameOrPath } = parsePeftAdapterConfig(
    await JsonObjectReader.read(join(dir, ADAPTER_CONFIG_FILE)),
  );
  const file = join(dir, ADAPTER_WEIGHTS_FILE);
  // Names and shapes are checked from the header, before any factor's bytes are read.
  const { tensors } = await readSafetensors(file, {
    checkHeader: (header) => checkFactorHeader(file, header, lora, (key) => parsePeftKey(file, key), options.model),
  });
  checkFactorValues(file, tensors);
  const halves = new Map<string, Partial<Record<LoraFactor, Tensor>>>();
  for (const [key, tensor] of tensors) {
    const { path, factor } = parsePeftKey(file, key);
    halves.set(path, { ...halves.get(path), [factor]: tensor });
  }
  const modules = new Map<string, LoraModule>();
  for (const [path, { lora_A: a, lora_B: b }] of halves) {
    if (!a || !b)
      throw new ModelFileError(
        file,
        `tensor ${peftTensorKey(path, a ? 'lora_B' : 'lora_A')} is missing (its pair is present)`,
        path,
      );
    modules.set(path, { a, b });
  }
  const adapter: LoadedAdapter = { config: lora, modules: sortModules(modules), baseModelNameOrPath, source: file };
  if (options.model) validateAdapter(options.model, adapter, file);
  else checkComplete(adapter, file);
  return adapter;
}

const KEY_PATTERN = /^base_model\.model\.(model\.layers\.(\d+)\.(?:self_attn|mlp)\.(\w+))\.(lora_A|lora_B)\.weight$/;

function parsePeftKey(
  file: string,
  key: string,
): { path: string; layer: number; module: LinearModule; factor: LoraFactor } {
  const match = KEY_PATTERN.exec(key);
  const module = match?.[3] as LinearModule | undefined;
  const layer = Number(match?.[2]);
  if (!match || !module || !LINEAR_MODULES.includes(module) || linearModulePath(layer, module) !== match[1]) {
    throw new ModelFileError(
      file,
      `tensor ${key} is not a LoRA factor of a decoder linear layer (expected e.g. ${peftTensorKey(linearModulePath(0, 'q_proj'), 'lora_A')})`,
      key,
    );
  }
  return { path: match[1], layer, module, factor: match[4] as LoraFactor };
}

function checkComplete(adapter: LoraAdapter, file: string): void {
  const layers = Math.max(-1, ...[...adapter.modules.keys()].map((path) => Number(path.split('.')[2]))) + 1;
  for (let layer = 0; layer < layers; layer++) {
    for (const target of adapter.config.targets) {
      const path = linearModulePath(layer, target);
      if (!adapter.modules.has(path))
        throw new ModelFileError(
          file,
          `tensor ${peftTensorKey(path, 'lora_A')} is missing (target ${target}, layer ${layer})`,
          path,
        );
    }
  }
}

// Layer then target order, whatever order the file listed them in, so iteration is deterministic.
function sortModules(modules: Map<string, LoraModule>): Map<string, LoraModule> {
  const rank = (path: string): number =>
    Number(path.split('.')[2]) * 16 + LINEAR_MODULES.indexOf(path.split('.')[4] as LinearModule);
  return new Map([...modules].sort(([x], [y]) => rank(x) - rank(y)));
}
