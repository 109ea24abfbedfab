import type { DType } from '../dtype.js';
import type { Tensor } from '../graph.js';
import * as o from '../ops.js';

export interface RopeTables {
  /** [batch, 1, seq, headDim], broadcast over heads. */
  cos: Tensor;
  sin: Tensor;
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
  return { cos: o.cos(full), sin: o.sin(full) };
}

/** x · cos + rotate_half(x) · sin, for x [batch, heads, seq, headDim]. */
export function applyRope(x: Tensor, tables: RopeTables): Tensor {
  const [x1, x2] = o.split(x, 2, -1);
  const rotated = o.concat([o.neg(x2!), x1!], -1);
  return o.add(o.mul(x, tables.cos), o.mul(rotated, tables.sin));
}
