import type { Rng } from '../model/random.js';
import type { SamplingParams } from './sampling-params.js';

export interface TokenLogprob {
  id: number;
  logprob: number;
}

export interface SampledToken extends TokenLogprob {
  /** The most likely tokens under the same distribution, best first (empty unless asked). */
  top: TokenLogprob[];
}

/**
 * Picks the next token from one row of logits. Order as vLLM: disallowed tokens out, repetition
 * penalty, temperature, then min-p, top-k and top-p filters, then a draw.
 *
 * The logprob returned is log-softmax(logits / T) over the whole vocabulary — before penalties
 * and filters — because that is what the trainer's graph computes for the same token (GRPO scores
 * at the sampling temperature), so sampler and trainer agree by construction. Greedy (T = 0)
 * reports log-softmax of the raw logits.
 */
export function sampleToken(logits: Float32Array, params: SamplingParams, history: readonly number[], rng: Rng, allowed?: Uint8Array): SampledToken {
  const vocab = logits.length;
  const temperature = params.temperature > 0 ? params.temperature : 1;
  const scores = new Float64Array(vocab);
  for (let i = 0; i < vocab; i++) scores[i] = allowed && !allowed[i] ? -Infinity : logits[i]!;
  if (params.repetitionPenalty !== 1) {
    for (const id of new Set(history)) {
      const s = scores[id]!;
      if (Number.isFinite(s)) scores[id] = s > 0 ? s / params.repetitionPenalty : s * params.repetitionPenalty;
    }
  }
  const id = params.temperature <= 0 ? argmax(scores) : draw(scores, temperature, params, rng);
  const logprobs = logSoftmax(logits, temperature);
  return { id, logprob: logprobs[id]!, top: topLogprobs(logprobs, params.topLogprobs) };
}

function draw(scores: Float64Array, temperature: number, params: SamplingParams, rng: Rng): number {
  const order = [...scores.keys()].filter((i) => scores[i] !== -Infinity).sort((a, b) => scores[b]! - scores[a]! || a - b);
  if (order.length === 0) return argmax(scores);
  const max = scores[order[0]!]!;
  let probs = order.map((i) => Math.exp((scores[i]! - max) / temperature));
  let total = probs.reduce((a, b) => a + b, 0);
  let keep = order.length;
  // min-p: drop tokens less likely than minP × the best one (the best itself always stays).
  const cut = params.minP > 0 ? probs.findIndex((p) => p < params.minP * probs[0]!) : -1;
  if (cut > 0) keep = cut;
  if (params.topK > 0) keep = Math.min(keep, params.topK);
  if (params.topP < 1) {
    let mass = 0;
    const limit = params.topP * probs.slice(0, keep).reduce((a, b) => a + b, 0);
    for (let k = 0; k < keep; k++) {
      mass += probs[k]!;
      if (mass >= limit) {
        keep = k + 1;
        break;
      }
    }
  }
  probs = probs.slice(0, keep);
  total = probs.reduce((a, b) => a + b, 0);
  let u = rng.next() * total;
  for (let k = 0; k < keep; k++) {
    u -= probs[k]!;
    if (u < 0) return order[k]!;
  }
  return order[keep - 1]!;
}

export function logSoftmax(logits: Float32Array, temperature = 1): Float64Array {
  let max = -Infinity;
  for (const v of logits) max = Math.max(max, v / temperature);
  let sum = 0;
  for (const v of logits) sum += Math.exp(v / temperature - max);
  const lse = max + Math.log(sum);
  return Float64Array.from(logits, (v) => v / temperature - lse);
}

export function topLogprobs(logprobs: Float64Array, k: number): TokenLogprob[] {
  if (k <= 0) return [];
  return [...logprobs.keys()]
    .sort((a, b) => logprobs[b]! - logprobs[a]! || a - b)
    .slice(0, k)
    .map((id) => ({ id, logprob: logprobs[id]! }));
}

export function argmax(values: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}
