import type { DType } from '../dtype.js';
import type { Tensor } from '../graph.js';
import * as o from '../ops.js';

export interface RopeTables {
  /** [batch, 1, seq, headDim], broadcast over heads. */
  cos: Tensor;
  sin: Tensor;
  /** [headDim, headDim] constant R with x·R = rotate_half(x) = [−x₂, x₁]. */
  rotation: Tensor;
  /** cos and sin times attention's 1/√headDim: queries rotated with these come out pre-scaled. */
  query: { cos: Tensor; sin: Tensor };
}

/**
 * Rotary tables from position ids [batch, seq]: angle = position · invFreq, repeated over both
 * halves of the head (the rotate-half layout of Hugging Face's Llama). Built once per graph and
 * shared by every layer.
 */
export function ropeTables(positions: Tensor, inverseFrequencies: ArrayLike<number>, dtype: DType): RopeTables {
  const g = positions.graph;
  const half = inverseFrequencies.length;
  const freqs = g.constant(Array.from(inverseFrequencies), dtype, [1, 1, half]);
  const angles = o.mul(o.unsqueeze(o.cast(positions, dtype), [-1]), freqs);
  const full = o.unsqueeze(o.concat([angles, angles], -1), [1]);
  const [cos, sin] = [o.cos(full), o.sin(full)];
  const scale = 1 / Math.sqrt(2 * half);
  return { cos, sin, rotation: g.constant(rotateHalfMatrix(2 * half), dtype, [2 * half, 2 * half]), query: { cos: o.mul(cos, scale), sin: o.mul(sin, scale) } };
}

/**
 * x · cos + rotate_half(x) · sin, for x [batch, heads, seq, headDim]. The rotation is one MatMul
 * by a signed permutation (exact: one nonzero term per output) rather than Split, Neg and Concat:
 * one node instead of three each way, and its gradient is one MatMul by the transpose.
 */
export function applyRope(x: Tensor, tables: RopeTables): Tensor {
  return rotate(x, tables.rotation, tables);
}

/**
 * RoPE for queries, with attention's 1/√headDim folded into the tables (built once per graph), so
 * no layer spends a Mul on the queries forward and another backward; pair with `queriesScaled`.
 */
export function applyQueryRope(q: Tensor, tables: RopeTables): Tensor {
  return rotate(q, tables.rotation, tables.query);
}

function rotate(x: Tensor, rotation: Tensor, { cos, sin }: { cos: Tensor; sin: Tensor }): Tensor {
  return o.add(o.mul(x, cos), o.mul(o.matmul(x, rotation), sin));
}

/** Row-major [d, d]: column j < d/2 takes −x[j + d/2], column j ≥ d/2 takes x[j − d/2]. */
function rotateHalfMatrix(d: number): number[] {
  const half = d / 2;
  const r = new Array<number>(d * d).fill(0);
  for (let j = 0; j < half; j++) {
    r[(j + half) * d + j] = -1;
    r[j * d + j + half] = 1;
  }
  return r;
}
