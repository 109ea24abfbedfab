import { resolve } from 'node:path';
import { resolveDpoConfig, type DpoConfig, type DpoLossType } from '../../../train/dpo/config.js';
import { UsageError, type OptionValues } from '../../command.js';
import type { DPO_OPTIONS } from './options.js';
import { parseSftSettings, type SftSettings } from '../sft/settings.js';
import { formatTrainSpec } from '../../../train/trainable.js';

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

export function parseDpoSettings(context: { options: OptionValues<typeof DPO_OPTIONS> }): DpoSettings {
  const values = context.options;
  const usage = (message: string, flag: string) => new UsageError(`dpo: ${message}`, flag);
  const base = parseSftSettings(context, 'dpo');
  const path = (name: 'init-adapter' | 'ref-adapter') => {
    const value = values[name];
    if (value === '') throw usage(`--${name} needs a folder`, name);
    return value === undefined ? undefined : resolve(value);
  };
  const initAdapter = path('init-adapter');
  const refAdapter = path('ref-adapter');
  const refBase = values['ref-base'];
  if (initAdapter) {
    // A boolean reads false when absent.
    const given = LORA_SHAPE_FLAGS.find((flag) => values[flag] !== undefined && values[flag] !== false);
    if (given)
      throw usage(`--${given} cannot be combined with --init-adapter (the adapter's own LoRA shape is trained)`, given);
  }
  if (refAdapter && refBase) throw usage('--ref-adapter and --ref-base name two references; pass one', 'ref-base');
  if (initAdapter && !base.train.has('lora'))
    throw usage(
      `--init-adapter starts an adapter, but --train ${formatTrainSpec(base.train)} trains none; merge it first (export-adapter --merge) and pass that folder as --model`,
      'init-adapter',
    );
  const reference: ReferenceChoice = refAdapter
    ? { kind: 'adapter', dir: refAdapter }
    : refBase || !initAdapter
      ? { kind: 'base' }
      : { kind: 'init' };
  let dpo: DpoConfig;
  try {
    dpo = resolveDpoConfig({
      beta: values.beta,
      labelSmoothing: values['label-smoothing'],
      lossType: values['loss-type'] as DpoLossType,
    });
  } catch (error) {
    // The one knob left to the DPO config's own check is --label-smoothing (with --loss-type).
    throw usage(
      (error as Error).message.replace(/^DPO: /, '').replace(/label_smoothing/, '--label-smoothing'),
      'label-smoothing',
    );
  }
  const metricsFile = values.metrics;
  return {
    ...base,
    dpo,
    epochs: values.epochs,
    ...(initAdapter ? { initAdapter } : {}),
    reference,
    ...(metricsFile ? { metricsFile: resolve(metricsFile) } : {}),
  };
}
