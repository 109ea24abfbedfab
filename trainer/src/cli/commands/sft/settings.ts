import { resolve } from 'node:path';
import type { ExecutionProvider } from '../../../engine/runtime.js';
import { makeLoraConfig, type LoraConfig, type LoraTarget } from '../../../lora/config.js';
import { UsageError, type CommandContext } from '../../command.js';
import { MICRO_BATCH_TOKENS } from '../../../train/micro-batches.js';
import { parseTrainSpec, type TrainSpec } from '../../../train/trainable.js';
import {
  choiceOption,
  integerOption,
  listOption,
  numberOption,
  optionalIntegerOption,
  stringOption,
} from '../../options.js';

export const SCHEDULES = ['constant', 'linear', 'cosine'] as const;
export const DEVICES: readonly ExecutionProvider[] = ['cpu', 'cuda'];

/** Everything `gauntlet-trainer sft` was asked to do, checked; paths absolute. */
export interface SftSettings {
  /** Undefined: train a freshly written built-in tiny model. */
  modelDir?: string;
  dataFile: string;
  outDir: string;
  /** Optimizer steps; undefined means one pass over the data. */
  steps?: number;
  /** Sequences per optimizer step = batchSize × gradAccum. */
  batchSize: number;
  gradAccum: number;
  /** Sequences per forward/backward pass (bounds memory); undefined: see {@link defaultMicroBatch}. */
  microBatch?: number;
  lr: number;
  warmup: number;
  schedule: (typeof SCHEDULES)[number];
  lora: LoraConfig;
  /** What is trained (--train): the adapter, base weights, or both. */
  train: TrainSpec;
  /** A checkpoint-<step> folder of an earlier run with the same settings, to continue from. */
  resume?: string;
  seed: number;
  maxLength?: number;
  /** Loss weight of the tokens that are not trained (0: completions only); see SftEncodeOptions. */
  promptLossWeight: number;
  threads?: number;
  saveEvery?: number;
  force: boolean;
  device: ExecutionProvider;
}

/** Which command reads the settings (dpo shares them): names its usage errors and sets its --lr default. */
export interface TrainingCommand {
  name: string;
  lr: number;
}

export function parseSftSettings(
  context: Pick<CommandContext, 'options'>,
  command: TrainingCommand = { name: 'sft', lr: 2e-4 },
): SftSettings {
  const usage = (message: string) => new UsageError(`${command.name}: ${message}`);
  const required = (name: string, what: string): string => {
    const value = stringOption(context, name);
    if (value === undefined || value === '') throw usage(`--${name} ${what} is required`);
    return resolve(value);
  };
  const model = stringOption(context, 'model');
  const batchSize = integerOption(context, 'batch-size', 8, 1);
  const rank = integerOption(context, 'rank', 8, 1);
  let lora: LoraConfig;
  let train: TrainSpec;
  try {
    train = parseTrainSpec(stringOption(context, 'train') ?? 'lora');
    const targets = listOption(context, 'targets');
    lora = makeLoraConfig({
      rank,
      alpha: numberOption(context, 'alpha', rank),
      useRslora: context.options['rslora'] === true,
      ...(targets ? { targets: targets as LoraTarget[] } : {}),
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw usage((error as Error).message);
  }
  const settings: SftSettings = {
    ...(model === undefined ? {} : { modelDir: resolve(model) }),
    dataFile: required('data', 'FILE (JSONL training data)'),
    outDir: required('out', 'DIR (where the adapter goes)'),
    batchSize,
    gradAccum: integerOption(context, 'grad-accum', 1, 1),
    lr: numberOption(context, 'lr', command.lr),
    warmup: integerOption(context, 'warmup', 0, 0),
    schedule: choiceOption(context, 'schedule', SCHEDULES, 'linear'),
    lora,
    train,
    seed: integerOption(context, 'seed', 0, 0),
    promptLossWeight: numberOption(context, 'prompt-loss-weight', 0, 0, true),
    force: context.options['force'] === true,
    device: choiceOption(context, 'device', DEVICES, 'cpu'),
  };
  const resume = stringOption(context, 'resume');
  if (resume !== undefined) settings.resume = resolve(resume);
  const optional = {
    steps: 'steps',
    microBatch: 'micro-batch',
    maxLength: 'max-length',
    threads: 'threads',
    saveEvery: 'save-every',
  } as const;
  for (const [key, flag] of Object.entries(optional)) {
    const value = optionalIntegerOption(context, flag);
    if (value !== undefined) settings[key as keyof typeof optional] = value;
  }
  if (settings.promptLossWeight > 1)
    throw usage(`--prompt-loss-weight must be between 0 and 1 (got ${settings.promptLossWeight})`);
  if (settings.steps !== undefined && settings.schedule !== 'constant' && settings.steps <= settings.warmup) {
    throw usage(
      `--schedule ${settings.schedule} decays after warmup, so --steps (${settings.steps}) must exceed --warmup (${settings.warmup})`,
    );
  }
  return settings;
}

/**
 * Sequences per pass by default: the whole batch, but no more than MICRO_BATCH_TOKENS at the
 * longest length (see there). Results do not depend on it.
 */
export function defaultMicroBatch(batchSize: number, maxLength: number): number {
  return Math.max(1, Math.min(batchSize, Math.floor(MICRO_BATCH_TOKENS / maxLength)));
}
