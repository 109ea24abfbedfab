import type { DType } from './dtype.js';
import { onnxTypeCode, typedArrayFrom } from './dtype.js';
import { EngineError } from './errors.js';
import type { Tensor } from './graph.js';
import type { NodeAttrs } from './op-spec.js';
import type { OpName } from './op-table.js';
import type { Shape } from './shape.js';

/**
 * One function per primitive op. Each adds one validated node; a plain number next to a tensor
 * becomes a scalar constant of that tensor's dtype.
 */
export type Operand = Tensor | number;

function op(name: OpName, inputs: readonly (Tensor | undefined)[], attrs: NodeAttrs = {}, hint?: Shape): Tensor {
  const graph = inputs.find((t) => t)!.graph;
  return graph.node(name, inputs, attrs, hint ? { hint: [hint] } : {})[0]!;
}

function tensors(a: Operand, b: Operand, what: string): [Tensor, Tensor] {
  if (typeof a !== 'number') return [a, typeof b === 'number' ? a.graph.constant(b, a.dtype) : b];
  if (typeof b !== 'number') return [b.graph.constant(a, b.dtype), b];
  throw new EngineError(`${what}: at least one operand must be a tensor`);
}

const ints = (from: Tensor, values: readonly number[]): Tensor => from.graph.constant(values, 'int64');

const binary =
  (name: OpName) =>
  (a: Operand, b: Operand): Tensor =>
    op(name, tensors(a, b, name));
const unary =
  (name: OpName) =>
  (x: Tensor): Tensor =>
    op(name, [x]);

export const add = binary('Add');
export const sub = binary('Sub');
export const mul = binary('Mul');
export const div = binary('Div');
export const pow = binary('Pow');
export const max = binary('Max');
export const min = binary('Min');
export const equal = binary('Equal');
export const less = binary('Less');
export const lessOrEqual = binary('LessOrEqual');
export const greater = binary('Greater');
export const greaterOrEqual = binary('GreaterOrEqual');
export const and = binary('And');
export const or = binary('Or');
export const not = unary('Not');
export const neg = unary('Neg');
export const abs = unary('Abs');
export const exp = unary('Exp');
export const log = unary('Log');
export const sqrt = unary('Sqrt');
export const reciprocal = unary('Reciprocal');
export const sigmoid = unary('Sigmoid');
export const tanh = unary('Tanh');
export const sin = unary('Sin');
export const cos = unary('Cos');
export const identity = unary('Identity');
/** The backward pass treats the result as a constant (e.g. the max subtracted inside softmax). */
export const stopGradient = unary('StopGradient');

export function where(condition: Tensor, x: Operand, y: Operand): Tensor {
  const [a, b] = tensors(x, y, 'Where');
  return op('Where', [condition, a, b]);
}

export const matmul = (a: Tensor, b: Tensor): Tensor => op('MatMul', [a, b]);

const reduce =
  (name: OpName) =>
  (x: Tensor, axes?: readonly number[], keepdims = true): Tensor =>
    op(name, [x, axes && axes.length ? ints(x, axes) : undefined], { keepdims: keepdims ? 1 : 0 });
export const reduceSum = reduce('ReduceSum');
export const reduceMean = reduce('ReduceMean');
export const reduceSumSquare = reduce('ReduceSumSquare');
export const reduceMax = reduce('ReduceMax');

/** Reshape to constant dims (0 copies the input dim, -1 is inferred) or to a runtime shape tensor with the shape it will have. */
export function reshape(x: Tensor, shape: readonly number[] | Tensor, hint?: Shape): Tensor {
  return op('Reshape', [x, Array.isArray(shape) ? ints(x, shape) : (shape as Tensor)], {}, hint);
}

export function expand(x: Tensor, shape: readonly number[] | Tensor, hint?: Shape): Tensor {
  return op('Expand', [x, Array.isArray(shape) ? ints(x, shape) : (shape as Tensor)], {}, hint);
}

export const transpose = (x: Tensor, perm?: readonly number[]): Tensor => op('Transpose', [x], perm ? { perm } : {});
export const unsqueeze = (x: Tensor, axes: readonly number[]): Tensor => op('Unsqueeze', [x, ints(x, axes)]);
export const squeeze = (x: Tensor, axes: readonly number[]): Tensor => op('Squeeze', [x, ints(x, axes)]);
export const concat = (xs: readonly Tensor[], axis: number): Tensor => op('Concat', xs, { axis });

/** Split into the given sizes, into `parts` equal pieces, or by a runtime sizes tensor with the shapes it will make. */
export function split(
  x: Tensor,
  sizes: readonly number[] | number | Tensor,
  axis = 0,
  hints?: readonly Shape[],
): Tensor[] {
  if (typeof sizes === 'number') return x.graph.node('Split', [x], { axis, num_outputs: sizes }, { outputs: sizes });
  if (!Array.isArray(sizes))
    return x.graph.node(
      'Split',
      [x, sizes as Tensor],
      { axis },
      { outputs: hints?.length ?? 0, ...(hints ? { hint: hints } : {}) },
    );
  return x.graph.node('Split', [x, ints(x, sizes)], { axis }, { outputs: sizes.length });
}

export function slice(
  x: Tensor,
  starts: readonly number[],
  ends: readonly number[],
  axes?: readonly number[],
  steps?: readonly number[],
): Tensor {
  return op('Slice', [
    x,
    ints(x, starts),
    ints(x, ends),
    axes ? ints(x, axes) : undefined,
    steps ? ints(x, steps) : undefined,
  ]);
}

/** Constant padding; `pads` lists every axis's leading amounts, then every axis's trailing amounts (ONNX order). */
export function pad(x: Tensor, pads: readonly number[] | Tensor, value = 0, hint?: Shape): Tensor {
  return op(
    'Pad',
    [x, Array.isArray(pads) ? ints(x, pads) : (pads as Tensor), x.graph.constant(value, x.dtype)],
    {},
    hint,
  );
}

export const gather = (data: Tensor, indices: Tensor, axis = 0): Tensor => op('Gather', [data, indices], { axis });
export const gatherElements = (data: Tensor, indices: Tensor, axis: number): Tensor =>
  op('GatherElements', [data, indices], { axis });
export const scatterElements = (
  data: Tensor,
  indices: Tensor,
  updates: Tensor,
  axis: number,
  reduction: 'none' | 'add' = 'none',
): Tensor => op('ScatterElements', [data, indices, updates], { axis, reduction });
export const scatterND = (data: Tensor, indices: Tensor, updates: Tensor, reduction: 'none' | 'add' = 'none'): Tensor =>
  op('ScatterND', [data, indices, updates], { reduction });

/** Keeps the lower (or upper) triangle of the last two dims, offset by k diagonals. */
export const trilu = (x: Tensor, upper: boolean, k = 0): Tensor =>
  op('Trilu', [x, k === 0 ? undefined : x.graph.constant(k, 'int64')], { upper: upper ? 1 : 0 });

export const cast = (x: Tensor, to: DType): Tensor => (x.dtype === to ? x : op('Cast', [x], { to: onnxTypeCode[to] }));
export const shape = (x: Tensor, start?: number, end?: number): Tensor =>
  op('Shape', [x], { ...(start !== undefined ? { start } : {}), ...(end !== undefined ? { end } : {}) });
export const size = (x: Tensor): Tensor => op('Size', [x]);

export function constantOfShape(shapeTensor: Tensor, value: number, dtype: DType, hint?: Shape): Tensor {
  const tensor = { dtype, dims: [1], data: typedArrayFrom(dtype, [value]) };
  return op('ConstantOfShape', [shapeTensor], { value: { tensor } }, hint);
}

export const range = (start: Tensor, limit: Tensor, delta: Tensor, hint?: Shape): Tensor =>
  op('Range', [start, limit, delta], {}, hint);
