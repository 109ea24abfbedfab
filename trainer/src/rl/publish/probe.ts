import type { LoraAdapter } from '../../lora/adapter.js';
import type { ModelTokenizer } from '../../model/tokenizer.js';
import { LogprobScorer } from '../../train/logprob-scorer.js';
import type { GrpoLearner } from '../../train/grpo/step.js';

/** A fixed token sequence whose completion log-probs a server must reproduce. */
export interface ProbeTokens {
  promptIds: readonly number[];
  completionIds: readonly number[];
}

/** What the trainer computed for the probe: the adapter's log-probs and, for comparison, the base model's. */
export interface ProbeExpectation extends ProbeTokens {
  /** log p(completion token t | everything before it) under the adapter, at temperature 1. */
  logprobs: number[];
  /** The same under the base model (adapters off): how far the adapter moves the probe. */
  baseLogprobs?: number[];
}

const PROBE_PROMPT = 'Goal: click the button labelled "OK".\nObservation: [12] button "OK"\nAction: ';
const PROBE_COMPLETION = "click('12')";

/** The default probe: a short fixed task-like prompt and completion in the model's own tokens. */
export function defaultProbe(tokenizer: Pick<ModelTokenizer, 'encode'>): ProbeTokens {
  const probe = { promptIds: tokenizer.encode(PROBE_PROMPT), completionIds: tokenizer.encode(PROBE_COMPLETION) };
  if (probe.promptIds.length === 0 || probe.completionIds.length === 0)
    throw new RangeError('the tokenizer encodes the default probe to no tokens');
  return probe;
}

/**
 * The learner's log-probs for the probe under its current adapter, and the base model's. Servers
 * report prompt log-probs of the raw model (temperature 1, as vLLM does), so a learner that scores
 * at another temperature is probed through a temperature-1 scorer of its own.
 */
export async function trainerProbe(
  learner: GrpoLearner,
  probe: ProbeTokens,
  /** Default: the policy being trained (its adapter, if any, and trained weights). */
  adapter?: LoraAdapter,
): Promise<ProbeExpectation> {
  if (probe.promptIds.length === 0 || probe.completionIds.length === 0)
    throw new RangeError('probe: promptIds and completionIds must both be non-empty');
  const sample = { ...probe, group: 'probe', reward: 0 };
  let scored: Float32Array[];
  if (learner.temperature === 1) {
    scored = [...(await learner.logprobs([sample], adapter ?? 'current')), ...(await learner.logprobs([sample], null))];
  } else {
    const trained = learner.trainer.trainedWeights;
    const lora = adapter ?? (learner.trainer.trainsAdapter ? learner.trainer.adapter : null);
    const scorer = await LogprobScorer.create({ ...learner.model, lora: lora?.config, trainable: [...trained.keys()] });
    try {
      const sequence = {
        tokens: [...probe.promptIds, ...probe.completionIds],
        mask: [...probe.promptIds.map(() => 0), ...probe.completionIds.map(() => 1)],
      };
      const cut = (lp: Float32Array[]) => lp[0]!.subarray(probe.promptIds.length);
      scored = [
        cut(await scorer.score([sequence], lora, {}, trained)),
        cut(await scorer.score([sequence], null, {}, learner.model.weights)),
      ];
    } finally {
      await scorer.release();
    }
  }
  return {
    promptIds: [...probe.promptIds],
    completionIds: [...probe.completionIds],
    logprobs: Array.from(scored[0]!),
    baseLogprobs: Array.from(scored[1]!),
  };
}
