import { resolve } from 'node:path';
import { DPO_DEFAULTS, DPO_LOSS_TYPES, resolveDpoConfig, type DpoConfig } from '../../../train/dpo/config.js';
import { UsageError, type CommandContext } from '../../command.js';
import { choiceOption, integerOption, numberOption, stringOption } from '../../options.js';
import { parseSftSettings, type SftSettings } from '../sft/settings.js';
import { formatTrainSpec } from '../../../train/trainable.js';

/** LoRA adapters move less per step than a full model: a higher rate than TRL's full-model 1e-6. */
export const DPO_DEFAULT_LR = 5e-5;

/** The reference the policy is compared with: the starting adapter, another adapter, or no adapter. */
export type ReferenceChoice = { kind: 'init' } | { kind: 'base' } | { kind: 'adapter'; dir: string };

/**
 * Everything `gauntlet-trainer dpo` was asked to do, checked. The training knobs are SFT's, read by
 * the same parser (batch sizes count pairs here); paths absolute.
 */
export interface DpoSettings extends SftSettings {
  dpo: DpoConfig;
  /** Passes over the pairs when --steps is not given. */
  epochs: number;
  /** Starting adapter (trained from), a PEFT folder; undefined: a fresh LoRA init. */
  initAdapter?: string;
  reference: ReferenceChoice;
  /** JSONL file for every step's metrics. */
  metricsFile?: string;
}

const LORA_SHAPE_FLAGS = ['rank', 'alpha', 'targets', 'rslora'] as const;

export function parseDpoSettings(context: Pick<CommandContext, 'options'>): DpoSettings {
  const usage = (message: string) => new UsageError(`dpo: ${message}`);
  const base = parseSftSettings(context, { name: 'dpo', lr: DPO_DEFAULT_LR });
  const path = (name: string) => {
    const value = stringOption(context, name);
    if (value === '') throw usage(`--${name} needs a folder`);
    return value === undefined ? undefined : resolve(value);
  };
  const initAdapter = path('init-adapter');
  const refAdapter = path('ref-adapter');
  const refBase = context.options['ref-base'] === true;
  if (initAdapter) {
    // A boolean reads false when absent.
    const given = LORA_SHAPE_FLAGS.find(
      (flag) => context.options[flag] !== undefined && context.options[flag] !== false,
    );
    if (given)
      throw usage(`--${given} cannot be combined with --init-adapter (the adapter's own LoRA shape is trained)`);
  }
  if (refAdapter && refBase) throw usage('--ref-adapter and --ref-base name two references; pass one');
  if (initAdapter && !base.train.has('lora'))
    throw usage(
      `--init-adapter starts an adapter, but --train ${formatTrainSpec(base.train)} trains none; merge it first (export-adapter --merge) and pass that folder as --model`,
    );
  const reference: ReferenceChoice = refAdapter
    ? { kind: 'adapter', dir: refAdapter }
    : refBase || !initAdapter
      ? { kind: 'base' }
      : { kind: 'init' };
  let dpo: DpoConfig;
  try {
    dpo = resolveDpoConfig({
      beta: numberOption(context, 'beta', DPO_DEFAULTS.beta),
      labelSmoothing: numberOption(context, 'label-smoothing', DPO_DEFAULTS.labelSmoothing, 0, true),
      lossType: choiceOption(context, 'loss-type', DPO_LOSS_TYPES, DPO_DEFAULTS.lossType),
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw usage((error as Error).message.replace(/^DPO: /, '').replace(/label_smoothing/, '--label-smoothing'));
  }
  const metricsFile = stringOption(context, 'metrics');
  return {
    ...base,
    dpo,
    epochs: integerOption(context, 'epochs', 1, 1),
    ...(initAdapter ? { initAdapter } : {}),
    reference,
    ...(metricsFile ? { metricsFile: resolve(metricsFile) } : {}),
  };
}
