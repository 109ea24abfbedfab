import type { HostTensor } from '../engine/host-tensor.js';
import { hostTensor } from '../engine/host-tensor.js';
import { ATTENTION_MASK, INPUT_IDS, POSITION_IDS } from '../graph/graph.js';
import type { RowInput, TrainGraph } from './train-graph.js';
import { LOSS_MASK, SCORE_INDEX, TARGET_IDS, TOTAL_SEQUENCES, TOTAL_TOKENS } from './train-graph.js';

/** One training sequence: prompt + completion ids, and which tokens are trained on. */
export interface TrainSequence {
  tokens: readonly number[];
  /** Per token, 1 to train on predicting it (completion), 0 for prompt and env tokens; same length as tokens. */
  mask: readonly number[];
  /** Values the loss asked for: a number per sequence, or an array aligned with `tokens`. */
  extras?: Readonly<Record<string, number | readonly number[]>>;
  /**
   * Values per scored position the loss asked for with rowInput: `width` values for each position
   * whose target is trained (mask ≠ 0), in token order, one after another.
   */
  rows?: Readonly<Record<string, Float32Array | Float64Array | BigInt64Array>>;
}

export interface BatchTotals {
  tokens: number;
  sequences: number;
}

/** Trained-token and sequence counts of an optimizer batch: the normalisers every micro-batch shares. */
export function batchTotals(sequences: readonly TrainSequence[]): BatchTotals {
  let tokens = 0;
  for (const s of sequences) for (let t = 1; t < s.mask.length; t++) tokens += s.mask[t]!;
  return { tokens: Math.max(tokens, 1), sequences: sequences.length };
}

export function validateSequence(s: TrainSequence, index: number, vocabSize: number): void {
  const where = `training sequence ${index}`;
  if (s.tokens.length < 2)
    throw new RangeError(`${where}: needs at least 2 tokens (a prompt token and a target), got ${s.tokens.length}`);
  if (s.mask.length !== s.tokens.length)
    throw new RangeError(`${where}: mask has ${s.mask.length} entries for ${s.tokens.length} tokens`);
  const bad = s.tokens.findIndex((t) => !Number.isInteger(t) || t < 0 || t >= vocabSize);
  if (bad >= 0)
    throw new RangeError(`${where}: token ${bad} is ${s.tokens[bad]}, outside the vocabulary [0, ${vocabSize})`);
}

/**
 * Feeds for one micro-batch: inputs are tokens[0..n−2], targets tokens[1..n−1] (the last token
 * predicts nothing), right-padded to the longest row; padding has mask 0.
 */
export function collate(
  rows: readonly TrainSequence[],
  graph: Pick<TrainGraph, 'tokenInputs' | 'sequenceInputs' | 'rowInputs' | 'totals' | 'scoreAll'>,
  totals: BatchTotals,
  dtype: 'float32' | 'float64' = 'float32',
): Record<string, HostTensor> {
  const seq = Math.max(...rows.map((r) => r.tokens.length - 1));
  const n = rows.length * seq;
  const ids = new BigInt64Array(n);
  const targets = new BigInt64Array(n);
  const attention = new BigInt64Array(n);
  const positions = new BigInt64Array(n);
  const floats = () => (dtype === 'float64' ? new Float64Array(n) : new Float32Array(n));
  const mask = floats();
  const tokenExtras = Object.fromEntries(graph.tokenInputs.map((name) => [name, floats()]));
  const sequenceExtras = Object.fromEntries(
    graph.sequenceInputs.map((name) => [
      name,
      dtype === 'float64' ? new Float64Array(rows.length) : new Float32Array(rows.length),
    ]),
  );
  rows.forEach((row, b) => {
    for (const name of graph.sequenceInputs) sequenceExtras[name]![b] = extra(row, b, name, 'number') as number;
    const perToken = graph.tokenInputs.map(
      (name) => [name, extra(row, b, name, 'array') as readonly number[]] as const,
    );
    for (let t = 0; t < seq; t++) {
      const at = b * seq + t;
      positions[at] = BigInt(t);
      if (t >= row.tokens.length - 1) continue;
      ids[at] = BigInt(row.tokens[t]!);
      targets[at] = BigInt(row.tokens[t + 1]!);
      attention[at] = 1n;
      mask[at] = row.mask[t + 1]!;
      for (const [name, values] of perToken) tokenExtras[name]![at] = values[t + 1]!;
    }
  });
  const dims = [rows.length, seq];
  // Positions the LM head scores: trained ones (or all real ones); never empty, so shapes stay valid.
  const scored: bigint[] = [];
  for (let at = 0; at < n; at++) if (graph.scoreAll ? attention[at] : mask[at]) scored.push(BigInt(at));
  const placeholder = scored.length === 0;
  if (placeholder) scored.push(0n);
  const feeds: Record<string, HostTensor> = {
    [SCORE_INDEX]: hostTensor('int64', [scored.length], BigInt64Array.from(scored)),
    [INPUT_IDS]: hostTensor('int64', dims, ids),
    [TARGET_IDS]: hostTensor('int64', dims, targets),
    [ATTENTION_MASK]: hostTensor('int64', dims, attention),
    [POSITION_IDS]: hostTensor('int64', dims, positions),
    [LOSS_MASK]: hostTensor(dtype, dims, mask as never),
  };
  for (const [name, data] of Object.entries(tokenExtras)) feeds[name] = hostTensor(dtype, dims, data as never);
  for (const [name, data] of Object.entries(sequenceExtras))
    feeds[name] = hostTensor(dtype, [rows.length], data as never);
  for (const input of graph.rowInputs) feeds[input.name] = rowFeed(rows, input, scored.length, placeholder);
  const scalar = (v: number) =>
    hostTensor(dtype, [], (dtype === 'float64' ? Float64Array.of(v) : Float32Array.of(v)) as never);
  if (graph.totals.includes(TOTAL_TOKENS)) feeds[TOTAL_TOKENS] = scalar(totals.tokens);
  if (graph.totals.includes(TOTAL_SEQUENCES)) feeds[TOTAL_SEQUENCES] = scalar(totals.sequences);
  return feeds;
}

function extra(row: TrainSequence, index: number, name: string, kind: 'number' | 'array'): number | readonly number[] {
  const v = row.extras?.[name];
  if (kind === 'number' && typeof v === 'number') return v;
  if (kind === 'array' && Array.isArray(v) && v.length === row.tokens.length) return v;
  const want = kind === 'number' ? 'a number' : `an array of ${row.tokens.length} values (one per token)`;
  throw new RangeError(`training sequence ${index}: extras.${name} must be ${want} (the loss reads it)`);
}

/** Row `row` of a [batch, seq] log-prob output, re-aligned with its tokens: index t holds log p(token t), index 0 is 0. */
export function rowLogprobs(all: HostTensor, row: number, length: number): Float32Array {
  const seq = all.dims[1]!;
  const out = new Float32Array(length);
  out.set((all.data as Float32Array).subarray(row * seq, row * seq + length - 1), 1);
  return out;
}

/**
 * One row input's feed, [scored, width]: each sequence's rows for its trained positions, in the
 * order collate scores them (sequence by sequence, token order). A batch with no trained position
 * scores one placeholder row (mask 0), fed zeros.
 */
function rowFeed(rows: readonly TrainSequence[], input: RowInput, scored: number, placeholder: boolean): HostTensor {
  const { name, width, dtype } = input;
  const data =
    dtype === 'int64'
      ? new BigInt64Array(scored * width)
      : dtype === 'float64'
        ? new Float64Array(scored * width)
        : new Float32Array(scored * width);
  let at = 0;
  rows.forEach((row, b) => {
    const trained = row.mask.slice(1).filter((m) => m !== 0).length;
    const values = row.rows?.[name];
    if (!values || values.length !== trained * width)
      throw new RangeError(
        `training sequence ${b}: rows.${name} must hold ${trained} × ${width} values (one row per trained position), got ${values?.length ?? 'none'}`,
      );
    if ((dtype === 'int64') !== values instanceof BigInt64Array)
      throw new RangeError(`training sequence ${b}: rows.${name} must be ${dtype === 'int64' ? 'int64' : 'float'}`);
    (data as Float32Array).set(values as Float32Array, at);
    at += values.length;
  });
  if (!placeholder && at !== data.length) throw new RangeError(`rows.${name}: ${at / width} rows for ${scored} scored`);
  return hostTensor(dtype, [scored, width], data as never);
}
