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

/** Where the student's continuations come from (in-process generation now; rollouts later). */
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

export interface SdftParts {
  trainer: LoraTrainer;
  /** The teacher's adapter, an EMA of the student's (updated in place after every step). */
  teacher: LoraAdapter;
  scorer: DistributionScorer;
  sampler: ContinuationSampler;
}

export interface SdftStepOptions {
  emaAlpha: number;
  vocab: number;
  topK?: number | undefined;
  sampling: StudentSampling;
  /** Seeds of this step's samples, one per state. */
  seeds: readonly number[];
  signal?: AbortSignal;
}

export interface SdftStepResult extends StepResult {
  /** Tokens the student sampled, summed over the batch. */
  sampledTokens: number;
}

/**
 * One SDFT step: the student samples a continuation from each state; the teacher (its EMA
 * adapter, the demonstration in its prompt) scores the same tokens; the student takes an
 * optimizer step on the KL between the two per sampled token; then the teacher moves towards
 * the student by `emaAlpha`.
 */
export async function sdftStep(
  parts: SdftParts,
  batch: readonly EncodedState[],
  options: SdftStepOptions,
): Promise<SdftStepResult> {
  const { trainer, teacher, scorer, sampler } = parts;
  const continuations = await sampler.sample(
    batch.map((s) => s.student),
    trainer.adapter,
    options.sampling,
    options.seeds,
    options.signal,
  );
  const sequence = (prompt: readonly number[], k: number): TrainSequence => ({
    tokens: [...prompt, ...continuations[k]!],
    mask: [...prompt.map(() => 0), ...continuations[k]!.map(() => 1)],
  });
  const teacherRows = await scorer.score(
    batch.map((s, k) => sequence(s.teacher, k)),
    teacher,
    options.signal ? { signal: options.signal } : {},
  );
  const students = batch.map((s, k): TrainSequence => {
    const rows = teacherRows[k]!;
    if (!options.topK) return { ...sequence(s.student, k), rows: { [TEACHER_LOGPROBS]: rows } };
    const top = teacherTopK(rows, options.vocab, options.topK);
    return { ...sequence(s.student, k), rows: { [TEACHER_LOGPROBS]: top.logprobs, [TEACHER_IDS]: top.ids } };
  });
  const result = await trainer.trainStep(students, options.signal ? { signal: options.signal } : {});
  emaUpdate(teacher, trainer.adapter, options.emaAlpha);
  return { ...result, sampledTokens: continuations.reduce((n, c) => n + c.length, 0) };
}
