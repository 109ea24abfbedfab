import { resolve } from 'node:path';
import type { ExecutionProvider } from '../../../engine/runtime.js';
import { makeLoraConfig, type LoraConfig, type LoraTarget } from '../../../lora/config.js';
import { UsageError, type OptionValues } from '../../command.js';
import { MICRO_BATCH_TOKENS } from '../../../train/micro-batches.js';
import { parseTrainSpec, type TrainSpec } from '../../../train/trainable.js';
import type { SCHEDULES, SFT_OPTIONS } from './options.js';

/** Everything `gauntlet-trainer sft` was asked to do, checked; paths absolute. */
export interface SftSettings {
  /** Undefined: train a freshly written built-in tiny model. */
  modelDir?: string;
  dataFile: string;
  outDir: string;
  /** Optimizer steps; undefined means `epochs` passes over the data. */
  steps?: number;
  /** Passes over the examples when --steps is not given (default 1). */
  epochs?: number;
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
  /** Also train demo-conditioned copies of the collect records (--demo-conditioned). */
  demoConditioned: boolean;
  threads?: number;
  saveEvery?: number;
  force: boolean;
  device: ExecutionProvider;
}

/** sft's own flags, which dpo does not have. */
type SftOnly = 'resume' | 'prompt-loss-weight' | 'demo-conditioned' | 'epochs';

/** The flags sft and dpo share, and sft's own (absent for dpo). */
export type SftValues = Omit<OptionValues<typeof SFT_OPTIONS>, SftOnly> &
  Partial<Pick<OptionValues<typeof SFT_OPTIONS>, SftOnly>>;

/** Reads sft's (or dpo's, named by `command`) flags, already converted and range-checked by the kit. */
export function parseSftSettings(context: { options: SftValues }, command = 'sft'): SftSettings {
  const values = context.options;
  const usage = (message: string, flag: string) => new UsageError(`${command}: ${message}`, flag);
  // sft's own flags; dpo may have flags of the same names (its --epochs counts passes over pairs).
  const own = <K extends SftOnly>(name: K): SftValues[K] | undefined => (command === 'sft' ? values[name] : undefined);
  const epochs = own('epochs');
  const resume = own('resume');
  const required = (name: 'data' | 'out', what: string): string => {
    const value = values[name];
    if (value === undefined || value === '') throw usage(`--${name} ${what} is required`, name);
    return resolve(value);
  };
  const train = domain('train', () => parseTrainSpec(values.train));
  const rank = values.rank ?? 8;
  const lora = domain('targets', () =>
    makeLoraConfig({
      rank,
      alpha: values.alpha ?? rank,
      useRslora: values.rslora,
      ...(values.targets ? { targets: values.targets as LoraTarget[] } : {}),
    }),
  );
  const settings: SftSettings = {
    ...(values.model === undefined ? {} : { modelDir: resolve(values.model) }),
    dataFile: required('data', 'FILE (JSONL training data)'),
    outDir: required('out', 'DIR (where the adapter goes)'),
    batchSize: values['batch-size'],
    gradAccum: values['grad-accum'],
    lr: values.lr,
    warmup: values.warmup,
    schedule: values.schedule as SftSettings['schedule'],
    lora,
    train,
    seed: values.seed,
    promptLossWeight: own('prompt-loss-weight') ?? 0,
    demoConditioned: own('demo-conditioned') ?? false,
    force: values.force,
    device: values.device as ExecutionProvider,
    ...(resume === undefined ? {} : { resume: resolve(resume) }),
    ...(values.steps === undefined ? {} : { steps: values.steps }),
    ...(epochs === undefined ? {} : { epochs }),
    ...(values['micro-batch'] === undefined ? {} : { microBatch: values['micro-batch'] }),
    ...(values['max-length'] === undefined ? {} : { maxLength: values['max-length'] }),
    ...(values.threads === undefined ? {} : { threads: values.threads }),
    ...(values['save-every'] === undefined ? {} : { saveEvery: values['save-every'] }),
  };
  if (settings.steps !== undefined && settings.epochs !== undefined)
    throw usage('--steps and --epochs both say how long to train; pass one', 'epochs');
  if (settings.steps !== undefined && settings.schedule !== 'constant' && settings.steps <= settings.warmup) {
    throw usage(
      `--schedule ${settings.schedule} decays after warmup, so --steps (${settings.steps}) must exceed --warmup (${settings.warmup})`,
      'steps',
    );
  }
  return settings;

  /** A domain parser's error (an unknown --train part or LoRA target) as a usage error naming the flag. */
  function domain<T>(flag: string, read: () => T): T {
    try {
      return read();
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw usage((error as Error).message, flag);
    }
  }
}

/**
 * Sequences per pass by default: the whole batch, but no more than MICRO_BATCH_TOKENS at the
 * longest length (see there). Results do not depend on it.
 */
export function defaultMicroBatch(batchSize: number, maxLength: number): number {
  return Math.max(1, Math.min(batchSize, Math.floor(MICRO_BATCH_TOKENS / maxLength)));
}
