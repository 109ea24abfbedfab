import type { Tensor } from './graph.js';
import * as o from './ops.js';
import { isStaticShape, sameShape } from './shape.js';

/**
 * Shape plumbing built from primitives. Static shapes become constants; symbolic ones are read
 * at runtime with Shape, so the same code serves `[2, 3]` and `[batch, seq]`.
 */

export function shapeOf(x: Tensor): Tensor {
  return isStaticShape(x.shape) ? x.graph.constant(x.shape, 'int64') : o.shape(x);
}

/** The size of one axis as a 1-element int64 tensor. */
export function dimOf(x: Tensor, axis: number): Tensor {
  const a = axis < 0 ? axis + x.rank : axis;
  const d = x.shape[a]!;
  return typeof d === 'number' ? x.graph.constant([d], 'int64') : o.shape(x, a, a + 1);
}

export function reshapeLike(x: Tensor, like: Tensor): Tensor {
  return sameShape(x.shape, like.shape) ? x : o.reshape(x, shapeOf(like), like.shape);
}

export function expandLike(x: Tensor, like: Tensor): Tensor {
  return sameShape(x.shape, like.shape) ? x : o.expand(x, shapeOf(like), like.shape);
}

export function zerosLike(x: Tensor): Tensor {
  return fillLike(x, 0);
}

export function fillLike(x: Tensor, value: number): Tensor {
  if (x.rank === 0) return x.graph.constant(value, x.dtype);
  return o.constantOfShape(shapeOf(x), value, x.dtype, x.shape);
}

/**
 * Sums a broadcast gradient back to the shape of the input it came from: leading axes the input
 * lacked, and axes where the input had size 1, are summed; a Reshape restores the exact shape.
 */
export function sumToShape(g: Tensor, like: Tensor): Tensor {
  if (sameShape(g.shape, like.shape)) return g;
  const lead = g.rank - like.rank;
  const axes: number[] = [];
  for (let i = 0; i < g.rank; i++) {
    if (i < lead) axes.push(i);
    else if (like.shape[i - lead] === 1 && g.shape[i] !== 1) axes.push(i);
  }
  const summed = axes.length ? o.reduceSum(g, axes, true) : g;
  // Still broadcastable (1 where the input is wider, from a gBroadcast): only missing leading axes go.
  const broadcast = summed.shape.some((d, k) => k >= lead && d === 1 && like.shape[k - lead] !== 1);
  if (broadcast) return lead > 0 ? o.squeeze(summed, [...Array(lead).keys()]) : summed;
  return reshapeLike(summed, like);
}

/** Swaps the last two axes (matrix transpose of a batch); undoing such a swap adds no node. */
export function transposeLast2(x: Tensor): Tensor {
  const source = swappedFrom(x);
  if (source) return source;
  const perm = [...Array(x.rank).keys()];
  [perm[x.rank - 2], perm[x.rank - 1]] = [perm[x.rank - 1]!, perm[x.rank - 2]!];
  return o.transpose(x, perm);
}

/** The tensor x is a last-two-axes swap of, when x is made by such a Transpose. */
export function swappedFrom(x: Tensor): Tensor | undefined {
  const source = x.producer;
  return source?.op === 'Transpose' && swapsLastTwo(source.attrs['perm'] as readonly number[] | undefined, x.rank)
    ? source.inputs[0]
    : undefined;
}

/** Whether a Transpose's perm (absent: every axis reversed) swaps the last two axes and no others. */
export function swapsLastTwo(perm: readonly number[] | undefined, rank: number): boolean {
  const p = perm ?? [...Array(rank).keys()].reverse();
  return (
    rank >= 2 && p[rank - 2] === rank - 1 && p[rank - 1] === rank - 2 && p.slice(0, -2).every((axis, i) => axis === i)
  );
}
