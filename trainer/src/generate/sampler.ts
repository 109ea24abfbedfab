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
 * Whether processed values see the structured-output mask. `drawn` (vLLM's way): the grammar's
 * disallowed tokens are out, so the values are the distribution the token was drawn from.
 * `unconstrained`: everything else the draw applied (penalty, temperature, filters), but over
 * every token — what a trainer that knows nothing of the grammar computes, so GRPO's
 * sampler-vs-trainer correction compares like with like under constrained decoding.
 */
export const CONSTRAINED_LOGPROBS = ['drawn', 'unconstrained'] as const;
export type ConstrainedLogprobs = (typeof CONSTRAINED_LOGPROBS)[number];

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
  constrained: ConstrainedLogprobs = 'drawn',
): SampledToken {
  const greedy = params.temperature <= 0;
  const open = penalised(logits, params.repetitionPenalty, history);
  const scores = allowed ? open.map((v, i) => (allowed[i] ? v : -Infinity)) : open;
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
  if (allowed && constrained === 'unconstrained' && mode.startsWith('processed'))
    processed = greedy ? open : keptScores(open, params.temperature, keptIds(open, params.temperature, params));
  const reported = reportedValues(logits, processed, mode);
  return { id, logprob: reported[id]!, top: topLogprobs(reported, params.topLogprobs) };
}

/** The logits with the repetition penalty applied to every token the sequence holds. */
function penalised(logits: Float32Array, penalty: number, history: readonly number[]): Float64Array {
  const scores = Float64Array.from(logits);
  if (penalty === 1) return scores;
  for (const id of new Set(history)) {
    const s = scores[id]!;
    if (Number.isFinite(s)) scores[id] = s > 0 ? s / penalty : s * penalty;
  }
  return scores;
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
  const { order, probs } = filtered(scores, temperature, params);
  if (order.length === 0) {
    const id = argmax(scores);
    return { id, kept: [id] };
  }
  const total = probs.reduce((a, b) => a + b, 0);
  let u = rng.next() * total;
  for (let k = 0; k < order.length; k++) {
    u -= probs[k]!;
    if (u < 0) return { id: order[k]!, kept: order };
  }
  return { id: order.at(-1)!, kept: order };
}

/** The ids min-p, top-k and top-p keep from softmax(scores / T). */
function keptIds(scores: Float64Array, temperature: number, params: SamplingParams): number[] {
  return filtered(scores, temperature, params).order;
}

/** The tokens the filters keep, most likely first, with their unnormalised probabilities. */
function filtered(
  scores: Float64Array,
  temperature: number,
  params: SamplingParams,
): { order: number[]; probs: number[] } {
  const order = [...scores.keys()]
    .filter((i) => scores[i] !== -Infinity)
    .sort((a, b) => scores[b]! - scores[a]! || a - b);
  if (order.length === 0) return { order, probs: [] };
  const max = scores[order[0]!]!;
  const probs = order.map((i) => Math.exp((scores[i]! - max) / temperature));
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
  return { order: order.slice(0, keep), probs: probs.slice(0, keep) };
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
