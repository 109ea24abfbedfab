import { ValidationError } from '@gauntlet/proto';
import { LINEAR_MODULES, type LinearModule } from '../model/layout.js';

/** LoRA can adapt any of the seven linear layers of a block. */
export const LORA_TARGETS = LINEAR_MODULES;
export type LoraTarget = LinearModule;

export interface LoraConfig {
  rank: number;
  alpha: number;
  /** In canonical order (q, k, v, o, gate, up, down) whatever order they were given in. */
  targets: LoraTarget[];
  /** Scale by α/√r instead of α/r (rank-stabilised LoRA). */
  useRslora: boolean;
  /** Recorded in adapter_config.json for PEFT; our forward pass applies no dropout. */
  dropout: number;
}

// PEFT's own defaults (r = 8, lora_alpha = 8), so an unconfigured adapter means the same in both.
export const DEFAULT_LORA_CONFIG: Readonly<LoraConfig> = {
  rank: 8,
  alpha: 8,
  targets: [...LORA_TARGETS],
  useRslora: false,
  dropout: 0,
};

export function makeLoraConfig(options: Partial<LoraConfig> = {}): LoraConfig {
  const config = { ...DEFAULT_LORA_CONFIG, ...options };
  if (!Number.isInteger(config.rank) || config.rank <= 0)
    throw new ValidationError(`LoRA rank must be a positive integer (got ${config.rank})`);
  if (!Number.isFinite(config.alpha) || config.alpha <= 0)
    throw new ValidationError(`LoRA alpha must be a positive number (got ${config.alpha})`);
  if (!(config.dropout >= 0 && config.dropout < 1))
    throw new ValidationError(`LoRA dropout must be in [0, 1) (got ${config.dropout})`);
  const unknown = config.targets.filter((t) => !(LORA_TARGETS as readonly string[]).includes(t));
  if (unknown.length > 0)
    throw new ValidationError(`unknown LoRA targets ${unknown.join(', ')} (choose from ${LORA_TARGETS.join(', ')})`);
  if (config.targets.length === 0) throw new ValidationError('LoRA needs at least one target module');
  return { ...config, targets: LORA_TARGETS.filter((t) => config.targets.includes(t)) };
}

/** The factor on B·A: α/r, or α/√r with rsLoRA (PEFT's `scaling`). */
export function loraScale(config: Pick<LoraConfig, 'rank' | 'alpha' | 'useRslora'>): number {
  return config.useRslora ? config.alpha / Math.sqrt(config.rank) : config.alpha / config.rank;
}
