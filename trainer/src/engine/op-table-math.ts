import { FLOAT_TYPES, NUMERIC_TYPES } from './dtype.js';
import type { InferContext, OpSpec, OutputInfo } from './op-spec.js';
import type { Dim } from './shape.js';
import { ShapeError } from './errors.js';
import { broadcastShapes, formatShape, normalizeAxis } from './shape.js';

/** MatMul and reductions: the rows whose shape rules are more than broadcasting. */

function matmulShape(c: InferContext): OutputInfo[] {
  const a = c.input(0).shape;
  const b = c.input(1).shape;
  const k1 = a[a.length - 1]!;
  const k2 = b[b.length - 2]!;
  if (k1 !== k2) throw new ShapeError(`inner dims differ: ${formatShape(a)} @ ${formatShape(b)} (${k1} vs ${k2})`);
  const batch = broadcastShapes(a.slice(0, -2), b.slice(0, -2));
  return [{ dtype: c.input(0).dtype, shape: [...batch, a[a.length - 2]!, b[b.length - 1]!] }];
}

/** Axes of a reduction, normalised; none given means all (ONNX's default with noop_with_empty_axes = 0). */
export function reductionAxes(c: InferContext): number[] {
  const rank = c.input(0).shape.length;
  const axes = c.inputs[1]?.value ?? [];
  if (axes.length === 0) return [...Array(rank).keys()];
  const normalized = axes.map((a) => normalizeAxis(a, rank));
  if (new Set(normalized).size !== normalized.length) throw new ShapeError(`axes ${axes.join(', ')} repeat an axis`);
  return normalized;
}

function reduceShape(c: InferContext): OutputInfo[] {
  const x = c.input(0);
  const axes = reductionAxes(c);
  const keep = c.int('keepdims', 1) === 1;
  const shape: Dim[] = [];
  x.shape.forEach((d, i) => {
    if (!axes.includes(i)) shape.push(d);
    else if (keep) shape.push(1);
  });
  return [{ dtype: x.dtype, shape }];
}

const reduce = (types = NUMERIC_TYPES): OpSpec => ({
  inputs: [
    { name: 'data', types },
    { name: 'axes', types: ['int64'], rank: 1, optional: true, constant: true },
  ],
  attrs: { keepdims: { kind: 'int' } },
  infer: reduceShape,
});

export const mathOps = {
  MatMul: {
    inputs: [
      { name: 'A', types: FLOAT_TYPES, rank: [2, 8] },
      { name: 'B', types: FLOAT_TYPES, rank: [2, 8], sameTypeAs: 0 },
    ],
    infer: matmulShape,
  },
  ReduceSum: reduce(),
  ReduceMean: reduce(FLOAT_TYPES),
  /** Σ x² in one pass (RMSNorm's statistic) instead of a squared copy and a sum. */
  ReduceSumSquare: reduce(FLOAT_TYPES),
  ReduceMax: reduce(),
} satisfies Record<string, OpSpec>;
