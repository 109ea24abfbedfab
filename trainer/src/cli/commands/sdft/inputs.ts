import type { TrainingModel } from '../training-model.js';
import type { Demonstration } from '../../../train/sdft/demo-states.js';
import type { EncodedState } from '../../../train/sdft/step.js';
import { UsageError, type CommandIo } from '../../command.js';
import { readDemonstrations } from './demo-file.js';
import { encodeDemoStates } from './encode-states.js';
import type { SdftSettings } from './settings.js';

const usage = (message: string, flag: string) => new UsageError(`sdft: ${message}`, flag);

export interface SdftInputs {
  states: EncodedState[];
  /** Optimizer steps: --epochs passes over the states, --batch-size states a step. */
  steps: number;
  /** States per step. */
  perStep: number;
}

/** The demonstrations, checked against the model and the flags, and the longest sequence the model may be given. */
export interface SdftDemos {
  demos: Demonstration[];
  /** --max-length, or the model's positions. */
  maxLength: number;
  /** What to say when a state or turn is too long for it. */
  remedy: string;
}

/**
 * The demo file, checked against the flags before anything runs: the task, the model's chat
 * template and length, --top-k against the vocabulary.
 */
export async function loadSdftDemos(s: SdftSettings, model: TrainingModel): Promise<SdftDemos> {
  const { config, tokenizer } = model;
  const demos = await readDemonstrations(s.demoFile);
  const other = demos.find((d) => s.task !== undefined && d.task !== s.task);
  if (other) {
    const web = s.rollouts?.resetOptions['url'] !== undefined;
    const asked = web ? `--url rolls out on task ${s.task}` : `--task ${s.task}`;
    throw usage(`${asked}: the demonstration in ${s.demoFile} is of task ${other.task}`, web ? 'url' : 'task');
  }
  if (!tokenizer.chatTemplate)
    throw usage(
      `--model ${model.baseModel}: the tokenizer has no chat template, and demo states are conversations`,
      'model',
    );
  if (s.topK !== undefined && s.topK > config.vocabSize)
    throw usage(
      `--top-k ${s.topK} exceeds the vocabulary (${config.vocabSize}); leave it out to use the whole vocabulary`,
      'top-k',
    );
  const limit = config.maxPositionEmbeddings;
  if (s.maxLength !== undefined && s.maxLength > limit)
    throw usage(`--max-length ${s.maxLength} exceeds the model's max_position_embeddings (${limit})`, 'max-length');
  const maxLength = s.maxLength ?? limit;
  const remedy =
    maxLength < limit
      ? `raise --max-length (the model allows ${limit})`
      : 'lower --max-new-tokens or use a --model with more positions';
  return { demos, maxLength, remedy };
}

/** The demo's states encoded for this model (loadSdftDemos' checks first), and the run's steps. */
export async function loadSdftInputs(s: SdftSettings, model: TrainingModel, io: CommandIo): Promise<SdftInputs> {
  const { demos, maxLength, remedy } = await loadSdftDemos(s, model);
  const encoded = encodeDemoStates(demos, model.tokenizer, s.teacherTemplate, maxLength, s.maxNewTokens);
  if (encoded.tooLong > 0)
    io.err(
      `sdft: left out ${encoded.tooLong} demo state(s): the teacher prompt and ${s.maxNewTokens} new tokens exceed ${maxLength}; to keep them, ${remedy}`,
    );
  if (encoded.states.length === 0)
    throw usage(`no demo state fits within ${maxLength} tokens; ${remedy}`, 'max-length');
  const perStep = Math.min(s.batchSize, encoded.states.length);
  const steps = s.epochs * Math.ceil(encoded.states.length / perStep);
  io.err(
    `sdft: ${encoded.states.length} demo state(s) from ${s.demoFile} (teacher prompts up to ${encoded.longestTeacher} tokens); ${steps} steps of ${perStep} states, ${s.epochs} epoch(s); the student samples in-process (up to ${s.maxNewTokens} tokens at temperature ${s.temperature})`,
  );
  return { states: encoded.states, steps, perStep };
}
