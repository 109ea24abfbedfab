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
  /** The same for feature-major heads [batch, heads, headDim, seq]: tables [batch, 1, headDim, seq], rotation Rᵀ from the left. */
  featureMajor: { cos: Tensor; sin: Tensor; rotation: Tensor; query: { cos: Tensor; sin: Tensor } };
}

/**
 * Rotary tables from position ids [batch, seq]: angle = position · invFreq, repeated over both
 * halves of the head (the rotate-half layout of Hugging Face's Llama). Built once per graph and
 * shared by every layer.
 */
export function ropeTables(positions: Tensor, inverseFrequencies: ArrayLike<number>, dtype: DType): RopeTables {
  const g = positions.graph;
  const half = inverseFrequencies.length;
  const d = 2 * half;
  const scale = 1 / Math.sqrt(d);
  const rotation = rotateHalfMatrix(d);
  const position = o.cast(positions, dtype);
  // Unused layouts cost nothing: nodes no output needs are dropped when the graph is serialised.
  const tables = (angles: Tensor, axis: number) => {
    const full = o.unsqueeze(o.concat([angles, angles], axis), [1]);
    const [cos, sin] = [o.cos(full), o.sin(full)];
    return { cos, sin, query: { cos: o.mul(cos, scale), sin: o.mul(sin, scale) } };
  };
  const rowMajor = tables(
    o.mul(o.unsqueeze(position, [-1]), g.constant(Array.from(inverseFrequencies), dtype, [1, 1, half])),
    -1,
  );
  const featureMajor = tables(
    o.mul(o.unsqueeze(position, [1]), g.constant(Array.from(inverseFrequencies), dtype, [1, half, 1])),
    1,
  );
  return {
    ...rowMajor,
    rotation: g.constant(rotation, dtype, [d, d]),
    featureMajor: { ...featureMajor, rotation: g.constant(transposed(rotation, d), dtype, [d, d]) },
  };
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

/** `applyRope` for feature-major heads xᵀ [batch, heads, headDim, seq]: xᵀ · cosᵀ + (Rᵀ · xᵀ) · sinᵀ. */
export function applyRopeFeatureMajor(x: Tensor, tables: RopeTables): Tensor {
  return rotate(x, tables.featureMajor.rotation, tables.featureMajor, true);
}

/** `applyQueryRope` for feature-major queries. */
export function applyQueryRopeFeatureMajor(q: Tensor, tables: RopeTables): Tensor {
  return rotate(q, tables.featureMajor.rotation, tables.featureMajor.query, true);
}

function rotate(x: Tensor, rotation: Tensor, { cos, sin }: { cos: Tensor; sin: Tensor }, fromLeft = false): Tensor {
  return o.add(o.mul(x, cos), o.mul(fromLeft ? o.matmul(rotation, x) : o.matmul(x, rotation), sin));
}

function transposed(m: number[], d: number): number[] {
  return m.map((_, k) => m[(k % d) * d + Math.floor(k / d)]!);
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
