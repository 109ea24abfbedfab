import type { ModelConfig } from '../model/config.js';
import { ModelFileError } from '../model/errors.js';
import type { SafetensorsHeader } from '../model/safetensors-header.js';
import { formatShape, type TensorMap } from '../model/tensor.js';
import { loraModuleSlots } from './adapter.js';
import type { LoraConfig } from './config.js';

/**
 * The largest magnitude a LoRA factor may have: float16's largest finite value. PEFT saves
 * adapters in float16 as often as float32, so a trained factor never comes near it, and with both
 * factors within it B·A·x stays finite in float32; 3e38 in a factor made every logprob null.
 */
export const MAX_FACTOR_MAGNITUDE = 65504;

/**
 * A factor the file declares or holds that cannot be served. Its message names the tensor by its
 * PEFT key (already checked against the key pattern) and says what is wrong in numbers only, so a
 * server may pass it on to the client that asked for the load.
 */
export class AdapterTensorError extends ModelFileError {
  constructor(
    file: string,
    readonly key: string,
    readonly problem: string,
  ) {
    super(file, `tensor ${key}: ${problem}`, key);
  }
}

/**
 * Checks a PEFT weights file's header before any tensor is read: each tensor a factor of a
 * configured target, with rank r, and, given the model, exactly the shape that model needs. A
 * header that declares a 400 MB factor is refused from its few bytes instead of after reading them.
 */
export function checkFactorHeader(
  file: string,
  header: SafetensorsHeader,
  lora: LoraConfig,
  parse: (key: string) => { path: string; module: string; factor: 'lora_A' | 'lora_B' },
  model?: ModelConfig,
): void {
  const slots = model ? new Map(loraModuleSlots(model, lora).map((slot) => [slot.path, slot])) : undefined;
  for (const { name: key, shape } of header.entries) {
    const { path, module, factor } = parse(key);
    if (!(lora.targets as readonly string[]).includes(module))
      throw new ModelFileError(file, `tensor ${key}: ${module} is not in adapter_config.json's target_modules`, key);
    const slot = slots?.get(path);
    if (slots && !slot) throw new AdapterTensorError(file, key, 'it is for a layer this model does not have');
    const expected = slot ? (factor === 'lora_A' ? slot.aShape : slot.bShape) : undefined;
    if (expected && (shape.length !== 2 || shape[0] !== expected[0] || shape[1] !== expected[1]))
      throw new AdapterTensorError(
        file,
        key,
        `shape ${formatShape(shape)} does not fit this model (expected ${formatShape(expected)})`,
      );
    if (shape.length !== 2 || shape[factor === 'lora_A' ? 0 : 1] !== lora.rank)
      throw new AdapterTensorError(
        file,
        key,
        `shape ${formatShape(shape)} does not have rank r = ${lora.rank} ${factor === 'lora_A' ? 'rows' : 'columns'}`,
      );
  }
}

/** Refuses a factor holding NaN, ±Infinity or a value beyond ±MAX_FACTOR_MAGNITUDE, naming the first one. */
export function checkFactorValues(file: string, tensors: TensorMap): void {
  for (const [key, { data }] of tensors) {
    for (let i = 0; i < data.length; i++) {
      const value = data[i]!;
      if (Math.abs(value) <= MAX_FACTOR_MAGNITUDE) continue; // false for NaN
      throw new AdapterTensorError(
        file,
        key,
        `it holds ${String(value)} at index ${i} (LoRA factors must be finite and within ±${MAX_FACTOR_MAGNITUDE}, float16's range)`,
      );
    }
  }
}
