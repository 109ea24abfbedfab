import { z } from 'zod';
import type { PolicyTensors } from '../../train/policy-tensors.js';
import type { TrainerState } from '../../train/trainer.js';

export type JsonValue = z.infer<ReturnType<typeof z.json>>;

/**
 * Everything a run needs to continue exactly where it stopped; the trained tensors are its
 * PolicyTensors (the adapter, the trained base weights, or both).
 */
export interface CheckpointState extends PolicyTensors {
  /** Optimizer updates taken. */
  step: number;
  /** The version last published (`<run>@v<N>`'s N). */
  version: number;
  /** The trainer's step count and AdamW moments (LoraTrainer.exportState()). */
  optimizer: TrainerState;
  /** The run's random generator state, as the loop serialises it. */
  rngState: JsonValue;
  /** The run's resolved configuration. */
  config: JsonValue;
  /** The task sampler's / curriculum's state. */
  curriculum: JsonValue;
  /** Running totals (groups dropped, trajectories, ...). */
  counters: JsonValue;
  /** Recorded as the adapter's base_model_name_or_path. */
  baseModel?: string | null;
  /**
   * Earlier versions groups in flight may still be played by (the admissible window before
   * `version`): a resumed in-process server loads them again, so those groups are not lost to a 404.
   */
  earlier?: EarlierVersion[];
}

export interface EarlierVersion extends PolicyTensors {
  version: number;
}

export interface LoadedCheckpoint extends CheckpointState {
  /** The checkpoint folder. */
  path: string;
  earlier: EarlierVersion[];
}

export const STATE_FILE = 'state.json';
export const ADAPTER_DIR = 'adapter';
export const OPTIMIZER_FILE = 'optimizer.safetensors';
/** The trained base weights by Hugging Face name (float32), when the run trains any. */
export const WEIGHTS_FILE = 'weights.safetensors';
export const CHECKPOINT_FORMAT = 'gauntlet-checkpoint';
/** Where an earlier version's tensors are kept in a checkpoint (a PEFT folder, and/or its weights file). */
export const earlierAdapterDir = (version: number) => `versions/v${version}`;

const fileDigest = z.strictObject({ bytes: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) });

/**
 * state.json: the scalars and JSON parts, a digest of every other file, and `sha256`, the digest of
 * its own other fields (see stateDigest), so an edited step, version or counter is caught like a
 * corrupt data file. Written last: its presence marks a complete checkpoint. Format 1 had no
 * digest of its own and is refused (it cannot be checked).
 */
export const stateFile = z.strictObject({
  format: z.literal(CHECKPOINT_FORMAT),
  formatVersion: z.literal(2, {
    error: 'must be 2 (format 1, before state.json carried its own digest, cannot be checked)',
  }),
  step: z.number().int().min(0),
  version: z.number().int().min(0),
  optimizerStep: z.number().int().min(0),
  rngState: z.json(),
  config: z.json(),
  curriculum: z.json(),
  counters: z.json(),
  baseModel: z.string().nullable(),
  /** Versions kept under versions/v<N>/ (see CheckpointState.earlier). */
  earlierVersions: z.array(z.number().int().min(0)),
  /** What the trained tensors are (absent: the adapter alone, as before base weights could be trained). */
  trained: z
    .array(z.enum(['adapter', 'weights']))
    .min(1)
    .optional(),
  saved: z.string(),
  files: z.record(z.string(), fileDigest),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type StateFile = z.infer<typeof stateFile>;
