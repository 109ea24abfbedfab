import type { LoraAdapter } from '../../lora/adapter.js';
import type { TrainSequence } from '../batch.js';
import type { LoraTrainer, StepResult } from '../trainer.js';
import { emaUpdate } from './ema.js';
import { TEACHER_IDS, TEACHER_LOGPROBS } from './loss.js';
import type { DistributionScorer } from './distribution-scorer.js';
import { teacherTopK } from './top-k.js';

/** A demo state as token ids: what the student is prompted with, and what the teacher is (the demo in it). */
export interface EncodedState {
  student: readonly number[];
  teacher: readonly number[];
}

export interface StudentSampling {
  temperature: number;
  maxTokens: number;
}

/** Where sdftStep's continuations come from: the trainer's own generation engine (rollouts sample through sdftUpdate). */
export interface ContinuationSampler {
  /** One continuation per prompt, sampled with `adapter` (its token ids, the end token included when one ended it). */
  sample(
    prompts: readonly (readonly number[])[],
    adapter: LoraAdapter,
    sampling: StudentSampling,
    seeds: readonly number[],
    signal?: AbortSignal,
  ): Promise<number[][]>;
}

/** What a step is made of: the sessions that score and train (sampling is the caller's). */
export interface SdftUpdateParts {
  trainer: LoraTrainer;
  /** The teacher's adapter, an EMA of the student's (updated in place after every step). */
  teacher: LoraAdapter;
  scorer: DistributionScorer;
}

export interface SdftParts extends SdftUpdateParts {
  sampler: ContinuationSampler;
}

/** A state with the continuation the student sampled from it (its token ids). */
export interface SampledState extends EncodedState {
  completion: readonly number[];
}

export interface SdftUpdateOptions {
  emaAlpha: number;
  vocab: number;
  topK?: number | undefined;
  signal?: AbortSignal;
}

export interface SdftStepOptions extends SdftUpdateOptions {
  sampling: StudentSampling;
  /** Seeds of this step's samples, one per state. */
  seeds: readonly number[];
}

export interface SdftStepResult extends StepResult {
  /** Tokens the student sampled, summed over the batch. */
  sampledTokens: number;
}

/**
 * One SDFT step: the student samples a continuation from each state, then sdftUpdate trains on
 * them.
 */
export async function sdftStep(
  parts: SdftParts,
  batch: readonly EncodedState[],
  options: SdftStepOptions,
): Promise<SdftStepResult> {
  const continuations = await parts.sampler.sample(
    batch.map((s) => s.student),
    parts.trainer.adapter,
    options.sampling,
    options.seeds,
    options.signal,
  );
  return sdftUpdate(
    parts,
    batch.map((s, k) => ({ ...s, completion: continuations[k]! })),
    options,
  );
}

/**
 * The update of an SDFT step on continuations the student already sampled (in process, or by
 * rollout workers under the version of its adapter): the teacher (its EMA adapter, the
 * demonstration in its prompt) scores the same tokens; the student takes an optimizer step on the
 * KL between the two per sampled token; then the teacher moves towards the student by `emaAlpha`.
 */
export async function sdftUpdate(
  parts: SdftUpdateParts,
  batch: readonly SampledState[],
  options: SdftUpdateOptions,
): Promise<SdftStepResult> {
  const { trainer, teacher, scorer } = parts;
  const run = options.signal ? { signal: options.signal } : {};
  const sequence = (prompt: readonly number[], completion: readonly number[]): TrainSequence => ({
    tokens: [...prompt, ...completion],
    mask: [...prompt.map(() => 0), ...completion.map(() => 1)],
  });
  const teacherRows = await scorer.score(
    batch.map((s) => sequence(s.teacher, s.completion)),
    teacher,
    run,
  );
  const students = batch.map((s, k): TrainSequence => {
    const rows = teacherRows[k]!;
    const student = sequence(s.student, s.completion);
    if (!options.topK) return { ...student, rows: { [TEACHER_LOGPROBS]: rows } };
    const top = teacherTopK(rows, options.vocab, options.topK);
    return { ...student, rows: { [TEACHER_LOGPROBS]: top.logprobs, [TEACHER_IDS]: top.ids } };
  });
  const result = await trainer.trainStep(students, run);
  emaUpdate(teacher, trainer.adapter, options.emaAlpha);
  return { ...result, sampledTokens: batch.reduce((n, s) => n + s.completion.length, 0) };
}

/** A step's metrics as a row reports them: the loss, both KLs, the optimizer's figures and the tokens. */
export function sdftMetrics(result: SdftStepResult, processedTokens: number): Record<string, number> {
  return {
    loss: result.loss,
    forward_kl: result.metrics['forward_kl']!,
    reverse_kl: result.metrics['reverse_kl']!,
    learning_rate: result.lr,
    grad_norm: result.gradNorm,
    sampled_tokens: result.sampledTokens,
    num_tokens: processedTokens,
  };
}

/** Tokens a step processed: both prompts of every state, and both passes (teacher, student) over the samples. */
export function processedTokens(batch: readonly EncodedState[], result: SdftStepResult): number {
  return batch.reduce((n, s) => n + s.student.length + s.teacher.length, 0) + 2 * result.sampledTokens;
}
