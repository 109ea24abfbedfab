import { AutodiffError } from './errors.js';
import type { Tensor } from './graph.js';
import { dimOf, reshapeLike, sumToShape, swappedFrom, swapsLastTwo, transposeLast2, zerosLike } from './helpers.js';
import type { OpName } from './op-table.js';
import * as o from './ops.js';
import type { BackwardRule, RuleContext } from './rule-context.js';
import { dimProduct, normalizeAxis, sameShape } from './shape.js';

/**
 * The backward rules: one per differentiable primitive in the op table, in one place. Composites
 * (softmax, RMSNorm, attention, …) have no rules of their own; they differentiate through these.
 * Every rule here has a finite-difference case in test/engine/gradcheck.test.ts.
 */
export const backwardRules: Readonly<Partial<Record<OpName, BackwardRule>>> = {
  Add: (c) => [c.when(0, () => sumToShape(c.g(), c.x(0))), c.when(1, () => sumToShape(c.g(), c.x(1)))],
  // Negating after the reduction touches the smaller tensor (a broadcast operand's gradient is a sum).
  Sub: (c) => [c.when(0, () => sumToShape(c.g(), c.x(0))), c.when(1, () => o.neg(sumToShape(c.g(), c.x(1))))],
  // x·x (RMSNorm's square) gets one product, 2·g·x, instead of g·x twice and an Add of the two.
  // Reads the gradient unexpanded: the product broadcasts it (after a mean, 2·g is taken on the small side).
  Mul: (c) =>
    c.x(0).name === c.x(1).name
      ? [c.when(0, () => sumToShape(o.mul(c.x(0), o.mul(c.gBroadcast(), 2)), c.x(0))), undefined]
      : [
          c.when(0, () => sumToShape(o.mul(c.gBroadcast(), c.x(1)), c.x(0))),
          c.when(1, () => sumToShape(o.mul(c.gBroadcast(), c.x(0)), c.x(1))),
        ],
  Div: (c) => [
    c.when(0, () => sumToShape(o.div(c.g(), c.x(1)), c.x(0))),
    c.when(1, () => sumToShape(o.neg(o.div(o.mul(c.g(), c.y()), c.x(1))), c.x(1))),
  ],
  Pow: (c) => [
    c.when(0, () => sumToShape(o.mul(c.g(), powerSlope(c)), c.x(0))),
    c.when(1, () => sumToShape(o.mul(o.mul(c.g(), c.y()), o.log(c.x(0))), c.x(1))),
  ],
  // Ties send the whole gradient to the first operand.
  Max: (c) => selectBetween(c, o.greaterOrEqual(c.x(0), c.x(1))),
  Min: (c) => selectBetween(c, o.lessOrEqual(c.x(0), c.x(1))),
  Neg: (c) => [o.neg(c.g())],
  Abs: (c) => [o.where(o.less(c.x(0), 0), o.neg(c.g()), c.g())],
  Exp: (c) => [o.mul(c.gBroadcast(), c.y())],
  Log: (c) => [o.div(c.g(), c.x(0))],
  Sqrt: (c) => [o.div(o.mul(c.g(), 0.5), c.y())],
  Reciprocal: (c) => [o.neg(o.mul(c.g(), o.mul(c.y(), c.y())))],
  Sigmoid: (c) => [o.mul(c.g(), o.mul(c.y(), o.sub(1, c.y())))],
  Tanh: (c) => [o.mul(c.g(), o.sub(1, o.mul(c.y(), c.y())))],
  Sin: (c) => [o.mul(c.g(), o.cos(c.x(0)))],
  Cos: (c) => [o.neg(o.mul(c.g(), o.sin(c.x(0))))],
  Identity: (c) => [c.g()],
  Cast: (c) => [o.cast(c.g(), c.x(0).dtype)],
  Where: (c) => [
    undefined,
    c.when(1, () => sumToShape(o.where(c.x(0), c.g(), 0), c.x(1))),
    c.when(2, () => sumToShape(o.where(c.x(0), 0, c.g()), c.x(2))),
  ],
  MatMul: (c) => [
    c.when(0, () => sumToShape(o.matmul(c.g(), transposeLast2(c.x(1))), c.x(0))),
    c.when(1, () => matmulWeightGrad(c)),
  ],
  // Left broadcastable (1 on the reduced axes): autodiff expands it only if nothing full-shaped is added to it.
  ReduceSum: (c) => [keptDims(c, c.g()), undefined],
  ReduceSumSquare: (c) => [o.mul(c.x(0), o.mul(keptDims(c, c.gBroadcast()), 2)), undefined],
  ReduceMean: (c) => [o.div(keptDims(c, c.g()), reducedCount(c)), undefined],
  ReduceMax: (c) => {
    const mask = o.cast(o.equal(c.x(0), keptDims(c, c.y())), c.x(0).dtype);
    const ties = o.reduceSum(mask, reducedAxes(c), true);
    return [o.mul(mask, o.div(keptDims(c, c.g()), ties)), undefined];
  },
  Reshape: (c) => [reshapeLike(c.g(), c.x(0)), undefined],
  Expand: (c) => [sumToShape(c.g(), c.x(0)), undefined],
  Unsqueeze: (c) => [reshapeLike(c.g(), c.x(0)), undefined],
  Squeeze: (c) => [reshapeLike(c.g(), c.x(0)), undefined],
  Transpose: (c) => {
    const perm = c.ints('perm') ?? [...Array(c.x(0).rank).keys()].reverse();
    const g = c.g();
    return [
      swapsLastTwo(perm, perm.length) && isProductSum(g)
        ? transposeProductSum(g)
        : o.transpose(
            g,
            perm.map((_, i) => perm.indexOf(i)),
          ),
    ];
  },
  Concat: (c) => {
    const xs = c.node.inputs as Tensor[];
    const axis = normalizeAxis(c.int('axis', 0), xs[0]!.rank);
    const sizes = xs.map((x) => x.shape[axis]!);
    const parts = sizes.every((s) => typeof s === 'number')
      ? o.split(c.g(), sizes as number[], axis)
      : o.split(
          c.g(),
          o.concat(
            xs.map((x) => dimOf(x, axis)),
            0,
          ),
          axis,
          xs.map((x) => x.shape),
        );
    return parts.map((p, i) => (c.needs(i) ? p : undefined));
  },
  Split: (c) => {
    const axis = c.int('axis', 0);
    const grads = c.node.outputs.map((_, i) => c.g(i));
    return [o.concat(grads, axis), undefined].slice(0, c.node.inputs.length);
  },
  Slice: (c) => [slicePad(c), undefined, undefined, undefined, undefined].slice(0, c.node.inputs.length),
  Pad: (c) => [padSlice(c), undefined, undefined].slice(0, c.node.inputs.length),
  Gather: (c) => [gatherGrad(c), undefined],
  GatherElements: (c) => [o.scatterElements(zerosLike(c.x(0)), c.x(1), c.g(), c.int('axis', 0), 'add'), undefined],
  // Overwritten positions of data get no gradient (unless updates are added to them); updates get theirs.
  ScatterElements: (c) => {
    const axis = c.int('axis', 0);
    const adds = c.attr('reduction') === 'add';
    return [
      c.when(0, () => (adds ? c.g() : o.scatterElements(c.g(), c.x(1), zerosLike(c.x(2)), axis))),
      undefined,
      c.when(2, () => o.gatherElements(c.g(), c.x(1), axis)),
    ];
  },
  Trilu: (c) =>
    [o.trilu(c.g(), c.int('upper', 1) === 1, c.node.inputs[1]?.value?.[0] ?? 0), undefined].slice(
      0,
      c.node.inputs.length,
    ),
};

/** Ops whose outputs carry no gradient: comparisons, shape queries, and the ops backward rules emit. */
export const nonDifferentiable: ReadonlySet<OpName> = new Set<OpName>([
  'Equal',
  'Less',
  'LessOrEqual',
  'Greater',
  'GreaterOrEqual',
  'And',
  'Or',
  'Not',
  'Shape',
  'Size',
  'ConstantOfShape',
  'Range',
  'StopGradient',
  'ScatterND',
]);

/**
 * Whether g is a product, or a sum of products (a gradient accumulated from several MatMuls): then
 * gᵀ needs no Transpose run on g, as (Σ aᵢbᵢ)ᵀ = Σ bᵢᵀaᵢᵀ, whose operand transposes onnxruntime
 * folds into the MatMuls.
 */
function isProductSum(g: Tensor): boolean {
  const source = g.producer;
  if (source?.op === 'MatMul') return source.inputs.every((t) => t!.rank >= 2);
  return (
    source?.op === 'Add' &&
    sameShape(source.inputs[0]!.shape, source.inputs[1]!.shape) &&
    source.inputs.every((t) => isProductSum(t!))
  );
}

function transposeProductSum(g: Tensor): Tensor {
  const [a, b] = g.producer!.inputs as [Tensor, Tensor];
  return g.producer!.op === 'MatMul'
    ? o.matmul(transposeLast2(b), transposeLast2(a))
    : o.add(transposeProductSum(a), transposeProductSum(b));
}

/** d xᵉ / dx = e·xᵉ⁻¹; a build-time scalar exponent folds into constants (RMSNorm's x^−½). */
function powerSlope(c: RuleContext): Tensor {
  const [x, e] = [c.x(0), c.x(1)];
  if (e.value?.length === 1 && e.rank === 0) return o.mul(o.pow(x, e.value[0]! - 1), e.value[0]!);
  return o.mul(e, o.pow(x, o.sub(e, 1)));
}

function selectBetween(c: RuleContext, firstWins: Tensor): (Tensor | undefined)[] {
  return [
    c.when(0, () => sumToShape(o.where(firstWins, c.g(), 0), c.x(0))),
    c.when(1, () => sumToShape(o.where(firstWins, 0, c.g()), c.x(1))),
  ];
}

/**
 * A [K, N] weight shared across a batch gets one [K, N] product instead of a batch reduced later,
 * unless `a` is a transposed view: flattening it would run the Transpose, while the batched
 * product reads it through MatMul's transposed operand.
 */
function matmulWeightGrad(c: RuleContext): Tensor {
  const [a, b, g] = [c.x(0), c.x(1), c.g()];
  const k = a.shape[a.rank - 1]!;
  const n = b.shape[b.rank - 1]!;
  if (b.rank === 2 && a.rank > 2 && typeof k === 'number' && typeof n === 'number' && !swappedFrom(a)) {
    return o.matmul(o.transpose(o.reshape(a, [-1, k])), o.reshape(g, [-1, n]));
  }
  return sumToShape(o.matmul(transposeLast2(a), g), b);
}

function reducedAxes(c: RuleContext): number[] {
  const x = c.x(0);
  const axes = c.node.inputs[1]?.value ?? [];
  return axes.length ? axes.map((a) => normalizeAxis(a, x.rank)) : [...Array(x.rank).keys()];
}

/** The reduced tensor with its reduced axes back as size 1, ready to broadcast against the input. */
function keptDims(c: RuleContext, t: Tensor): Tensor {
  return c.int('keepdims', 1) === 1 ? t : o.unsqueeze(t, reducedAxes(c));
}

function reducedCount(c: RuleContext): Tensor {
  const x = c.x(0);
  const dims = reducedAxes(c).map((a) => x.shape[a]!);
  const n = dimProduct(dims);
  if (typeof n === 'number') return x.graph.constant(n, x.dtype);
  return o.div(o.cast(o.size(x), x.dtype), o.cast(o.size(c.y()), x.dtype));
}

/** Slice's gradient pads the upstream gradient with zeros back to the input's extent. */
function slicePad(c: RuleContext): Tensor {
  const x = c.x(0);
  const starts = c.x(1).value!;
  const ends = c.x(2).value!;
  const axes = (c.node.inputs[3]?.value ?? starts.map((_, i) => i)).map((a) => normalizeAxis(a, x.rank));
  if ((c.node.inputs[4]?.value ?? []).some((s) => s !== 1))
    throw new AutodiffError(`node '${c.node.name}' (Slice): backward supports step 1 only`);
  const before: (number | Tensor)[] = Array(x.rank).fill(0);
  const after: (number | Tensor)[] = Array(x.rank).fill(0);
  axes.forEach((a, i) => {
    const [start, end, d] = [starts[i]!, ends[i]!, x.shape[a]!];
    if (typeof d === 'number') {
      const clamp = (v: number): number => Math.min(Math.max(v < 0 ? v + d : v, 0), d);
      before[a] = clamp(start);
      after[a] = d - Math.max(clamp(end), clamp(start));
      return;
    }
    // Symbolic extent: offsets from the far end are read at runtime (indices assumed in range).
    before[a] = start >= 0 ? start : o.add(dimOf(x, a), start);
    after[a] = end >= 2 ** 31 ? 0 : end < 0 ? -end : o.sub(dimOf(x, a), end);
  });
  const all = [...before, ...after];
  if (all.every((p) => typeof p === 'number')) return o.pad(c.g(), all as number[]);
  const pads = o.concat(
    all.map((p) => (typeof p === 'number' ? x.graph.constant([p], 'int64') : p)),
    0,
  );
  return o.pad(c.g(), pads, 0, x.shape);
}

function padSlice(c: RuleContext): Tensor {
  const pads = c.x(1).value;
  if (!pads) throw new AutodiffError(`node '${c.node.name}' (Pad): backward needs build-time constant pads`);
  const r = c.x(0).rank;
  const starts = pads.slice(0, r);
  const ends = pads.slice(r).map((p) => (p === 0 ? 2 ** 62 : -p));
  return o.slice(c.g(), starts, ends);
}

/** Gather's data gradient scatters rows back, adding where an index repeats (a token used twice). */
function gatherGrad(c: RuleContext): Tensor {
  const [data, idx, g] = [c.x(0), o.cast(c.x(1), 'int64'), c.g()];
  const axis = normalizeAxis(c.int('axis', 0), data.rank);
  if (axis === 0) return o.scatterND(zerosLike(data), o.unsqueeze(idx, [-1]), g, 'add');
  const toFront = [axis, ...[...Array(data.rank).keys()].filter((a) => a !== axis)];
  const r = idx.rank;
  const gPerm = [...Array(r).keys()].map((i) => axis + i);
  for (let i = 0; i < g.rank; i++) if (i < axis || i >= axis + r) gPerm.push(i);
  const moved = o.scatterND(
    zerosLike(o.transpose(data, toFront)),
    o.unsqueeze(idx, [-1]),
    o.transpose(g, gPerm),
    'add',
  );
  return o.transpose(
    moved,
    toFront.map((_, i) => toFront.indexOf(i)),
  );
}
