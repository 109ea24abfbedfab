import { JsonObjectReader, describeValue } from '../model/json-reader.js';
import { LORA_TARGETS, makeLoraConfig, type LoraConfig, type LoraTarget } from './config.js';

export const ADAPTER_CONFIG_FILE = 'adapter_config.json';

/** `adapter_config.json` as PEFT writes it, with every field vLLM checks set to what it accepts. */
export function peftAdapterConfigJson(lora: LoraConfig, baseModelNameOrPath: string | null): Record<string, unknown> {
  return {
    alpha_pattern: {},
    auto_mapping: null,
    base_model_name_or_path: baseModelNameOrPath,
    bias: 'none',
    fan_in_fan_out: false,
    inference_mode: true,
    init_lora_weights: true,
    layers_pattern: null,
    layers_to_transform: null,
    lora_alpha: lora.alpha,
    lora_dropout: lora.dropout,
    modules_to_save: null,
    peft_type: 'LORA',
    r: lora.rank,
    rank_pattern: {},
    revision: null,
    target_modules: [...lora.targets],
    task_type: 'CAUSAL_LM',
    use_dora: false,
    use_rslora: lora.useRslora,
  };
}

/**
 * Reads a PEFT LoRA config. Features that change the math (DoRA, biases, per-layer ranks, extra
 * saved modules) are refused by name: vLLM refuses most of them too, and ignoring one would
 * silently give a different model.
 */
export function parsePeftAdapterConfig(json: JsonObjectReader): {
  lora: LoraConfig;
  baseModelNameOrPath: string | null;
} {
  const peftType = json.string('peft_type');
  if (peftType !== 'LORA') throw json.fail('peft_type', `must be "LORA" (got ${describeValue(peftType)})`);
  if (json.has('task_type') && json.string('task_type') !== 'CAUSAL_LM')
    throw json.fail('task_type', `must be "CAUSAL_LM" (got ${describeValue(json.raw('task_type'))})`);
  if (json.boolean('use_dora', false)) throw json.fail('use_dora', 'true is not supported (DoRA; vLLM refuses it too)');
  if (json.string('bias', 'none') !== 'none')
    throw json.fail('bias', `must be "none" (got ${describeValue(json.raw('bias'))})`);
  if (json.boolean('fan_in_fan_out', false))
    throw json.fail('fan_in_fan_out', 'true is not supported (Conv1D-style weights)');
  for (const key of ['modules_to_save', 'layers_to_transform', 'layers_pattern']) {
    const value = json.raw(key);
    if (value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0)) {
      throw json.fail(key, `is not supported (got ${describeValue(value)}; expected null)`);
    }
  }
  for (const key of ['rank_pattern', 'alpha_pattern']) {
    const pattern = json.optionalObject(key);
    if (pattern && Object.keys(pattern.object).length > 0)
      throw json.fail(key, `per-module ranks/alphas are not supported (got ${describeValue(json.raw(key))})`);
  }
  const lora = makeLoraConfig({
    rank: json.positiveInt('r'),
    alpha: json.positiveNumber('lora_alpha'),
    targets: readTargets(json),
    useRslora: json.boolean('use_rslora', false),
    dropout: json.number('lora_dropout', 0),
  });
  const base = json.has('base_model_name_or_path') ? json.string('base_model_name_or_path') : null;
  return { lora, baseModelNameOrPath: base };
}

// PEFT accepts a list of module names, or the string "all-linear"; a regex string we cannot honour.
function readTargets(json: JsonObjectReader): LoraTarget[] {
  const value = json.raw('target_modules');
  if (value === 'all-linear') return [...LORA_TARGETS];
  if (!Array.isArray(value) || value.length === 0) {
    throw json.fail(
      'target_modules',
      `must be a non-empty list of module names or "all-linear" (got ${describeValue(value)})`,
    );
  }
  for (const target of value) {
    if (!(LORA_TARGETS as readonly unknown[]).includes(target)) {
      throw json.fail('target_modules', `holds ${describeValue(target)}, not one of ${LORA_TARGETS.join(', ')}`);
    }
  }
  return value as LoraTarget[];
}
