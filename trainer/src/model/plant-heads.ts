import type { ModelConfig } from './config.js';
import type { Rng } from './random.js';
import type { TensorMap } from './tensor.js';

/**
 * q/k bias size per rotary pair: a = 9 puts the token at the head's offset about 10 logits above
 * its neighbours at head widths 16 to 64. The fast pairs tell neighbours apart; the slow ones keep
 * far positions down (with the 4 fastest pairs alone, a position 402 back scores within 0.3 of the
 * peak at width 64; with all pairs nothing within 4096 comes within 30).
 */
const BIAS_SCALE = 9;
/** Norm of what a planted head writes, as an embedding row's (1.6/√hidden per entry, see tiny.ts). */
const WRITE_NORM = 1.6;

/**
 * Why a model cannot take previous-token heads at these offsets, or undefined when it can: the heads
 * live in the q/k biases, which only qwen2 has, and each takes a query head of its own.
 */
export function previousTokenHeadsProblem(config: ModelConfig, offsets: readonly number[]): string | undefined {
  const bad = offsets.find((offset) => !Number.isSafeInteger(offset) || offset < 1);
  if (bad !== undefined) return `offsets must be positive integers (got ${bad})`;
  if (new Set(offsets).size !== offsets.length) return `offsets must differ (got ${offsets.join(',')})`;
  if (offsets.length === 0) return undefined;
  if (!config.attentionBias || config.qkNorm)
    return `needs q/k biases to carry the offset, which only qwen2 has (got ${config.architecture})`;
  if (offsets.length > config.numHeads) return `at most one per query head: ${config.numHeads} (got ${offsets.length})`;
  return undefined;
}

/** Offsets 1..count, what `--prev-token-heads N` stands for. */
export function consecutiveOffsets(count: number): number[] {
  if (!Number.isSafeInteger(count) || count < 0)
    throw new RangeError(`previous-token heads: the count must be a non-negative integer (got ${count})`);
  return Array.from({ length: count }, (_, head) => head + 1);
}

/**
 * Makes layer 0's query heads 0..offsets.length−1 previous-token heads: head h attends from position
 * i to i − offsets[h] whatever the tokens, and adds a random projection of that token to the residual.
 * A from-scratch model does not form such heads by itself in the budgets we train
 * (bench/recall-probe.mjs), yet looking a key up (find the element the goal names, answer its bid)
 * needs the token next to the match moved into the matched position.
 *
 * How: the planted q and k projections are constant (weights 0, bias only), so the score depends on
 * the distance alone. Keys are shared by the query heads of a kv group (GQA), so the kv head's k
 * bias is a fixed (a, 0) on every rotary pair and each query head's q bias is that rotated back
 * by its own offset δ: after RoPE, q·k = a² cos((i − δ − j)·ω) per pair, largest at j = i − δ.
 * The kv head's value is a random projection P of the token (norm kept, biases 0). Each planted
 * head writes through its own columns of o_proj: head 0 (the first offset) through Pᵀ (so it adds
 * the part of the token's embedding that P sees, as the probe measured), the others through
 * a fresh random matrix each: were two heads to write tokens in embedding directions, a lookup of
 * a token could match at two positions. (In recall-probe extra heads slow learning either way:
 * docs/trainer.md, the recall-probe section.)
 * Every write is scaled to an embedding row's norm. Other weights are left as they are (query heads
 * of a planted kv group keep their q but read the planted k and v).
 *
 * Mutates `weights` in place; draws from `rng` only when there are offsets.
 */
export function plantPreviousTokenHeads(
  config: ModelConfig,
  weights: TensorMap,
  offsets: readonly number[],
  rng: Rng,
): void {
  const problem = previousTokenHeadsProblem(config, offsets);
  if (problem !== undefined) throw new RangeError(`previous-token heads: ${problem}`);
  const { headDim: d, hiddenSize: hidden, numHeads, numKvHeads } = config;
  const tensor = (name: string): Float32Array => {
    const found = weights.get(`model.layers.0.self_attn.${name}`);
    if (found === undefined) throw new RangeError(`previous-token heads: weights lack layer 0's ${name}`);
    return found.data as Float32Array;
  };
  const [qWeight, qBias, kWeight, kBias, vWeight, vBias, oWeight] = [
    'q_proj.weight',
    'q_proj.bias',
    'k_proj.weight',
    'k_proj.bias',
    'v_proj.weight',
    'v_proj.bias',
    'o_proj.weight',
  ].map(tensor) as [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];
  const pairs = d / 2;
  const frequency = (pair: number) => config.ropeTheta ** ((-2 * pair) / d);
  const headsPerKv = numHeads / numKvHeads;
  const valueProjections = new Map<number, Float64Array>();
  const randomProjection = () => Float64Array.from({ length: d * hidden }, () => rng.normal() / Math.sqrt(hidden));
  const outputWidth = numHeads * d;

  for (const [head, offset] of offsets.entries()) {
    const kv = Math.floor(head / headsPerKv);
    let value = valueProjections.get(kv);
    if (value === undefined) {
      value = randomProjection();
      valueProjections.set(kv, value);
      plantConstantKey(kWeight, kBias, kv, d, hidden, pairs);
      for (let r = 0; r < d; r++) {
        vBias[kv * d + r] = 0;
        for (let c = 0; c < hidden; c++) vWeight[(kv * d + r) * hidden + c] = value[r * hidden + c]!;
      }
    }
    qWeight.fill(0, head * d * hidden, (head + 1) * d * hidden);
    qBias.fill(0, head * d, (head + 1) * d);
    for (let pair = 0; pair < pairs; pair++) {
      const angle = -offset * frequency(pair);
      qBias[head * d + pair] = BIAS_SCALE * Math.cos(angle);
      qBias[head * d + pair + d / 2] = BIAS_SCALE * Math.sin(angle);
    }
    const write = head === 0 ? value : randomProjection();
    const scale = writeScale(value, write, d, hidden, rng);
    for (let r = 0; r < d; r++)
      for (let c = 0; c < hidden; c++) oWeight[c * outputWidth + head * d + r] = scale * write[r * hidden + c]!;
  }
}

/** k = (a, 0) on every rotary pair, for every token. */
function plantConstantKey(
  kWeight: Float32Array,
  kBias: Float32Array,
  kv: number,
  d: number,
  hidden: number,
  pairs: number,
): void {
  kWeight.fill(0, kv * d * hidden, (kv + 1) * d * hidden);
  kBias.fill(0, kv * d, (kv + 1) * d);
  for (let pair = 0; pair < pairs; pair++) kBias[kv * d + pair] = BIAS_SCALE;
}

/** The factor that makes writeᵀ·value·z as long as an embedding row for a random z of norm √hidden (a normed state). */
function writeScale(value: Float64Array, write: Float64Array, d: number, hidden: number, rng: Rng): number {
  const z = Float64Array.from({ length: hidden }, () => rng.normal());
  const projected = Float64Array.from({ length: d }, (_, r) => {
    let sum = 0;
    for (let c = 0; c < hidden; c++) sum += value[r * hidden + c]! * z[c]!;
    return sum;
  });
  let squared = 0;
  for (let c = 0; c < hidden; c++) {
    let sum = 0;
    for (let r = 0; r < d; r++) sum += write[r * hidden + c]! * projected[r]!;
    squared += sum * sum;
  }
  const zNorm = Math.hypot(...z);
  return (WRITE_NORM * Math.sqrt(hidden)) / zNorm / Math.sqrt(squared);
}
