import { createHash, randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import type { LoraAdapter } from '../../../lora/adapter.js';
import { loadAdapter } from '../../../lora/peft.js';
import { mergeAdapter } from '../../../lora/merge.js';
import { writeModelFolder } from '../../../model/model-folder.js';
import { readSafetensors, writeSafetensors } from '../../../model/safetensors.js';
import { loadModel, validateWeights } from '../../../model/weights.js';
import { momentsFrom, momentTensors } from '../../../rl/checkpoint/files.js';
import type { TrainSpec } from '../../../train/trainable.js';
import { trainsBaseWeights } from '../../../train/trainable.js';
import type { LoraTrainer, TrainerState } from '../../../train/trainer.js';
import type { TrainSequence } from '../../../train/batch.js';
import { UsageError } from '../../command.js';
import { writeAdapterFolder } from './output.js';
import type { TrainingModel } from '../training-model.js';

export const OPTIMIZER_FILE = 'optimizer.safetensors';
export const TRAINER_STATE_FILE = 'trainer_state.json';
/** With --train lora plus base parts, a checkpoint keeps the adapter apart (merging would lose it for resume). */
export const CHECKPOINT_ADAPTER_DIR = 'adapter';

/** What a resumed run must share with the run that saved the checkpoint, to continue it exactly. */
const runFields = z.object({
  train: z.string(),
  seed: z.number(),
  totalSteps: z.number(),
  sequencesPerStep: z.number(),
  /** trainingDigest of the examples; absent in checkpoints written before it was kept. */
  examples: z.string().optional(),
});
export type SftRunFields = z.infer<typeof runFields>;

/**
 * A digest of what a run trains on: every sequence's tokens and loss weights, in order. Another
 * --data file, --prompt-loss-weight, --demo-conditioned, --max-length or tokenizer changes it.
 */
export function trainingDigest(sequences: readonly TrainSequence[]): string {
  const hash = createHash('sha256');
  for (const { tokens, mask } of sequences) hash.update(`${tokens.join(',')}|${mask.join(',')}\n`);
  return hash.digest('hex');
}
const trainerState = runFields.extend({
  format: z.literal('gauntlet-sft-checkpoint'),
  step: z.number().int().nonnegative(),
  optimizerStep: z.number().int().nonnegative(),
});

/**
 * What a run writes as its result: a PEFT adapter for `--train lora`; a Hugging Face model folder
 * when base weights are trained (the adapter merged into it when lora is trained too).
 */
export async function writeTrainedOutput(
  dir: string,
  trainer: LoraTrainer,
  model: Pick<TrainingModel, 'config' | 'tokenizerFiles' | 'baseModel'>,
): Promise<void> {
  if (trainer.trainedWeights.size === 0) return writeAdapterFolder(dir, trainer.adapter, model.baseModel);
  const weights = trainer.trainsAdapter
    ? mergeAdapter(trainer.modelWeights(), trainer.adapter)
    : trainer.modelWeights();
  await writeModelFolder(dir, model.config, weights, model.tokenizerFiles);
}

/**
 * A checkpoint `--resume` continues bitwise: the trained tensors as they stand (an adapter, a
 * model folder, or a model folder with the adapter unmerged in adapter/), AdamW's moments for
 * every one of them, and the step. Written in a temporary sibling and renamed into place whole;
 * `extra` writes what else a command keeps (sdft's teacher adapter) into the same folder first.
 */
export async function saveSftCheckpoint(
  dir: string,
  trainer: LoraTrainer,
  model: TrainingModel,
  run: SftRunFields,
  extra?: (folder: string) => Promise<void>,
): Promise<void> {
  const temporary = join(dirname(dir), `.${basename(dir)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    if (trainer.trainedWeights.size === 0) await writeAdapterFolder(temporary, trainer.adapter, model.baseModel);
    else {
      await writeModelFolder(temporary, model.config, trainer.modelWeights(), model.tokenizerFiles);
      if (trainer.trainsAdapter)
        await writeAdapterFolder(join(temporary, CHECKPOINT_ADAPTER_DIR), trainer.adapter, model.baseModel);
    }
    const state = trainer.exportState();
    await writeSafetensors(join(temporary, OPTIMIZER_FILE), momentTensors(state.optimizer), { format: 'pt' });
    const fields: z.infer<typeof trainerState> = {
      format: 'gauntlet-sft-checkpoint',
      ...run,
      step: state.step,
      optimizerStep: state.optimizer.step,
    };
    await writeFile(join(temporary, TRAINER_STATE_FILE), `${JSON.stringify(fields, null, 2)}\n`);
    await extra?.(temporary);
    await rm(dir, { recursive: true, force: true });
    await rename(temporary, dir);
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    throw error;
  }
}

export interface ResumedSft {
  /** The model to train from: the checkpoint's weights (base weights as trained so far). */
  weights: TrainingModel['weights'];
  adapter?: LoraAdapter;
  state: TrainerState;
}

/** Reads a checkpoint for `--resume`, refusing one from a run whose settings differ (it could not continue exactly). */
export async function loadSftCheckpoint(
  dir: string,
  model: TrainingModel,
  spec: TrainSpec,
  run: SftRunFields,
  command = 'sft',
): Promise<ResumedSft> {
  const usage = (message: string) => new UsageError(`${command}: --resume ${dir}: ${message}`, 'resume');
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(join(dir, TRAINER_STATE_FILE), 'utf8'));
  } catch (error) {
    throw usage(`no readable ${TRAINER_STATE_FILE} (${(error as Error).message}); pass a checkpoint-<step> folder`);
  }
  const parsed = trainerState.safeParse(raw);
  if (!parsed.success) throw usage(`${TRAINER_STATE_FILE} is not an sft checkpoint state`);
  const saved = parsed.data;
  for (const key of ['train', 'seed', 'totalSteps', 'sequencesPerStep'] as const)
    if (saved[key] !== run[key])
      throw usage(`it was saved by a run with ${key} ${saved[key]}, this run has ${run[key]}; pass the same settings`);
  if (saved.examples !== undefined && run.examples !== undefined && saved.examples !== run.examples)
    throw usage(
      'it was saved by a run that trained on other examples; pass the same --data, --prompt-loss-weight, --demo-conditioned and --max-length',
    );
  const { tensors } = await readSafetensors(join(dir, OPTIMIZER_FILE));
  const optimizer = momentsFrom(join(dir, OPTIMIZER_FILE), tensors, saved.optimizerStep);
  const state = { step: saved.step, optimizer };
  const trainsBase = trainsBaseWeights(spec);
  const weights = trainsBase ? await checkpointWeights(dir, model) : model.weights;
  if (!spec.has('lora')) return { weights, state };
  const adapterDir = trainsBase ? join(dir, CHECKPOINT_ADAPTER_DIR) : dir;
  return { weights, state, adapter: await loadAdapter(adapterDir, { model: model.config }) };
}

async function checkpointWeights(dir: string, model: TrainingModel): Promise<TrainingModel['weights']> {
  const { weights } = await loadModel(dir);
  validateWeights(model.config, weights, () => join(dir, 'model.safetensors'));
  return weights;
}
