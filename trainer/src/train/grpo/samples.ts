import type { TrainSequence } from '../batch.js';
import { needsReference, type GrpoConfig } from './config.js';
import { ADVANTAGE, OLD_IS_CURRENT, OLD_LOGPROBS, REF_LOGPROBS, SAMPLER_LOGPROBS, TOKEN_ADVANTAGE } from './loss.js';

/**
 * One tokenised completion, the trainer's view of a rollout (TRL's rollout_func shape: prompt
 * ids, completion ids, sampler logprobs, env mask). In a multi-turn episode the completion holds
 * every turn's sampled tokens and, between them, the env's tokens with envMask 0.
 */
export interface GrpoSample {
  promptIds: readonly number[];
  completionIds: readonly number[];
  /** The sampler's log-prob of each completion token (0 on env tokens); needed while the sampler correction is on. */
  samplerLogprobs?: readonly number[];
  /** Per completion token: 1 = sampled by the policy, 0 = env token (never trained). Default: all 1. */
  envMask?: readonly number[];
  /** Stopped by the length limit, not by EOS or a stop string. */
  truncated?: boolean;
  /** Same prompt / task / seed: the completions whose rewards are compared. */
  group: string;
  reward: number;
  /** Set on every sample to skip the group computation (e.g. one episode split into per-turn samples). */
  advantage?: number;
  /** With advantage gigpo (required there): the advantage of each completion token, its turn's. */
  tokenAdvantages?: readonly number[];
  /** Log-probs before the first update, aligned with completionIds; default: taken in the first pass. */
  oldLogprobs?: readonly number[];
  /** Adapter-free log-probs, aligned with completionIds; default: computed when β > 0. */
  refLogprobs?: readonly number[];
}

/** Checks one sample; messages name the sample and the field. */
export function validateSample(s: GrpoSample, i: number, config: GrpoConfig): void {
  const where = `GRPO sample ${i}`;
  const n = s.completionIds.length;
  if (s.promptIds.length === 0)
    throw new RangeError(`${where}: promptIds is empty (the first completion token needs a context)`);
  if (n === 0) throw new RangeError(`${where}: completionIds is empty`);
  if (typeof s.group !== 'string' || s.group === '') throw new RangeError(`${where}: group must be a non-empty string`);
  if (!Number.isFinite(s.reward)) throw new RangeError(`${where}: reward must be a finite number, got ${s.reward}`);
  if (s.advantage !== undefined && !Number.isFinite(s.advantage))
    throw new RangeError(`${where}: advantage must be a finite number, got ${s.advantage}`);
  const aligned = (name: string, values: readonly number[] | undefined, ok: (v: number) => boolean, want: string) => {
    if (values === undefined) return;
    if (values.length !== n)
      throw new RangeError(`${where}: ${name} has ${values.length} entries for ${n} completion tokens`);
    const bad = values.findIndex((v) => !ok(v));
    if (bad >= 0) throw new RangeError(`${where}: ${name}[${bad}] is ${values[bad]}; ${want}`);
  };
  aligned('envMask', s.envMask, (v) => v === 0 || v === 1, 'must be 0 or 1');
  aligned('samplerLogprobs', s.samplerLogprobs, Number.isFinite, 'log-probs must be finite');
  aligned('oldLogprobs', s.oldLogprobs, Number.isFinite, 'log-probs must be finite');
  aligned('refLogprobs', s.refLogprobs, Number.isFinite, 'log-probs must be finite');
  aligned('tokenAdvantages', s.tokenAdvantages, Number.isFinite, 'advantages must be finite');
  if (config.advantage === 'gigpo' && !s.tokenAdvantages)
    throw new RangeError(`${where}: tokenAdvantages are missing; advantage gigpo trains each turn with its own`);
  if (config.samplerCorrection && !s.samplerLogprobs)
    throw new RangeError(
      `${where}: samplerLogprobs are missing; the sampler correction needs them (or set samplerCorrection: null)`,
    );
}

/** What the loss trains on: completion tokens the policy sampled, unless the completion is truncated and those are masked. */
export function trainedMask(s: GrpoSample, config: GrpoConfig): number[] {
  const dropped = config.maskTruncatedCompletions && s.truncated === true;
  return s.completionIds.map((_, t) => (dropped ? 0 : (s.envMask?.[t] ?? 1)));
}

/** Per-token values for the completion, placed at the completion's positions of the whole sequence and 0 wherever the mask is 0. */
export function alignToSequence(
  s: GrpoSample,
  mask: readonly number[],
  values: ArrayLike<number> | undefined,
  offset = 0,
): number[] {
  const out = new Array<number>(s.promptIds.length + s.completionIds.length).fill(0);
  if (!values) return out;
  mask.forEach((m, t) => (out[s.promptIds.length + t] = m ? values[offset + t]! : 0));
  return out;
}

export interface SequenceInputs {
  advantage: number;
  /** Aligned with the whole sequence (prompt + completion); null: take them in this pass. */
  oldLogprobs: readonly number[] | null;
  refLogprobs: readonly number[] | null;
}

/** The training sequence with the extras the GRPO loss reads. */
export function grpoSequence(s: GrpoSample, config: GrpoConfig, inputs: SequenceInputs): TrainSequence {
  const mask = trainedMask(s, config);
  const length = s.promptIds.length + s.completionIds.length;
  const extras: Record<string, number | readonly number[]> = {
    [ADVANTAGE]: inputs.advantage,
    [OLD_IS_CURRENT]: inputs.oldLogprobs ? 0 : 1,
    [OLD_LOGPROBS]: inputs.oldLogprobs ?? new Array<number>(length).fill(0),
  };
  if (config.advantage === 'gigpo') extras[TOKEN_ADVANTAGE] = alignToSequence(s, mask, s.tokenAdvantages);
  if (config.samplerCorrection) extras[SAMPLER_LOGPROBS] = alignToSequence(s, mask, s.samplerLogprobs);
  if (needsReference(config)) extras[REF_LOGPROBS] = inputs.refLogprobs ?? new Array<number>(length).fill(0);
  return { tokens: [...s.promptIds, ...s.completionIds], mask: [...s.promptIds.map(() => 0), ...mask], extras };
}
