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
 * What a reported logprob is, as vLLM's `--logprobs-mode` says it (vLLM's default is raw):
 * - `raw_logprobs`: log-softmax of the model's logits, before anything the request changes.
 * - `processed_logprobs`: log-softmax of what the draw used: disallowed tokens (structured
 *   outputs, min_tokens) out, repetition penalty, logits / T, then min-p, top-k and top-p
 *   (tokens they drop are −∞). The distribution the token was drawn from; with none of those
 *   set but T, it is log-softmax(logits / T), what the trainer's graph computes at the sampling
 *   temperature (GRPO's importance ratios need exactly that).
 * - `raw_logits` and `processed_logits`: the same two, as logits instead of logprobs.
 * Greedy (T = 0) applies no temperature and no filters, as vLLM's greedy path.
 */
export const LOGPROBS_MODES = ['raw_logprobs', 'processed_logprobs', 'raw_logits', 'processed_logits'] as const;
export type LogprobsMode = (typeof LOGPROBS_MODES)[number];

/**
 * Picks the next token from one row of logits. Order as vLLM: disallowed tokens out, repetition
 * penalty, temperature, then min-p, top-k and top-p filters, then a draw. The logprobs reported
 * (the drawn token's and the top alternatives') are what `mode` says.
 */
export function sampleToken(
  logits: Float32Array,
  params: SamplingParams,
  history: readonly number[],
  rng: Rng,
  allowed?: Uint8Array,
  mode: LogprobsMode = 'raw_logprobs',
): SampledToken {
  const vocab = logits.length;
  const greedy = params.temperature <= 0;
  const scores = new Float64Array(vocab);
  for (let i = 0; i < vocab; i++) scores[i] = allowed && !allowed[i] ? -Infinity : logits[i]!;
  if (params.repetitionPenalty !== 1) {
    for (const id of new Set(history)) {
      const s = scores[id]!;
      if (Number.isFinite(s)) scores[id] = s > 0 ? s / params.repetitionPenalty : s * params.repetitionPenalty;
    }
  }
  let id: number;
  let processed: Float64Array | undefined;
  if (greedy) {
    id = argmax(scores);
    processed = scores;
  } else {
    const drawn = draw(scores, params.temperature, params, rng);
    id = drawn.id;
    if (mode.startsWith('processed')) processed = keptScores(scores, params.temperature, drawn.kept);
  }
  const reported = reportedValues(logits, processed, mode);
  return { id, logprob: reported[id]!, top: topLogprobs(reported, params.topLogprobs) };
}

function reportedValues(logits: Float32Array, processed: Float64Array | undefined, mode: LogprobsMode): Float64Array {
  switch (mode) {
    case 'raw_logprobs':
      return logSoftmax(logits);
    case 'raw_logits':
      return Float64Array.from(logits);
    case 'processed_logits':
      return processed!;
    case 'processed_logprobs':
      return logSoftmaxOf(processed!);
  }
}

/** The scores the draw used: scores / T for the tokens the filters kept, −∞ for every other. */
function keptScores(scores: Float64Array, temperature: number, kept: readonly number[]): Float64Array {
  const out = new Float64Array(scores.length).fill(-Infinity);
  for (const i of kept) out[i] = scores[i]! / temperature;
  return out;
}

/** A draw from softmax(scores / T) after the filters; returns the token and the ids the filters kept. */
function draw(
  scores: Float64Array,
  temperature: number,
  params: SamplingParams,
  rng: Rng,
): { id: number; kept: number[] } {
  const order = [...scores.keys()]
    .filter((i) => scores[i] !== -Infinity)
    .sort((a, b) => scores[b]! - scores[a]! || a - b);
  if (order.length === 0) {
    const id = argmax(scores);
    return { id, kept: [id] };
  }
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
  const kept = order.slice(0, keep);
  let u = rng.next() * total;
  for (let k = 0; k < keep; k++) {
    u -= probs[k]!;
    if (u < 0) return { id: order[k]!, kept };
  }
  return { id: order[keep - 1]!, kept };
}

export function logSoftmax(logits: Float32Array, temperature = 1): Float64Array {
  return logSoftmaxOf(Float64Array.from(logits, (v) => v / temperature));
}

/** log-softmax of scores that may hold −∞ (tokens ruled out), which stay −∞. */
function logSoftmaxOf(scores: Float64Array): Float64Array {
  let max = -Infinity;
  for (const v of scores) max = Math.max(max, v);
  let sum = 0;
  for (const v of scores) sum += Math.exp(v - max);
  const lse = max + Math.log(sum);
  return scores.map((v) => v - lse);
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
