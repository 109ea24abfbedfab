import type { DType } from './dtype.js';
import { ALL_TYPES, INT_TYPES, NUMERIC_TYPES, onnxTypeCode } from './dtype.js';
import { ShapeError } from './errors.js';
import type { InferContext, OpSpec, OutputInfo } from './op-spec.js';
import type { Dim, Shape } from './shape.js';
import {
  broadcastShapes,
  dimProduct,
  dimQuotient,
  dimSum,
  formatShape,
  freshDim,
  isStaticShape,
  normalizeAxis,
} from './shape.js';

/** Rows that move data without arithmetic: reshapes, joins, slices, gathers, shape queries. */

const INDEX: readonly DType[] = ['int64'];
const axesInput = { name: 'axes', types: INDEX, rank: 1, constant: true } as const;

/** The target shape of Reshape/Expand/ConstantOfShape: known values, else the builder's hint, else fresh symbols. */
function shapeFromInput(c: InferContext, i: number, what: string): Dim[] {
  const t = c.input(i);
  if (t.value) return [...t.value];
  if (c.hint?.[0]) return [...c.hint[0]];
  const n = t.shape[0];
  if (typeof n !== 'number') throw new ShapeError(`${what} shape input ${t.name} has unknown length`);
  return Array.from({ length: n }, () => freshDim(what));
}

function reshape(c: InferContext): OutputInfo[] {
  const x = c.input(0);
  if (!c.input(1).value) return [{ dtype: x.dtype, shape: shapeFromInput(c, 1, 'reshape') }];
  const target: Dim[] = c.input(1).value!.map((d, i) => (d === 0 ? (x.shape[i] ?? 0) : d));
  const inferred = target.indexOf(-1);
  if (target.lastIndexOf(-1) !== inferred) throw new ShapeError(`shape [${target.join(', ')}] has more than one -1`);
  if (inferred >= 0) {
    const known = dimProduct(target.filter((_, i) => i !== inferred));
    target[inferred] = dimQuotient(dimProduct(x.shape), known) ?? freshDim('reshape');
  } else if (isStaticShape(x.shape) && isStaticShape(target) && dimProduct(x.shape) !== dimProduct(target)) {
    throw new ShapeError(`cannot reshape ${formatShape(x.shape)} to ${formatShape(target)}`);
  }
  return [{ dtype: x.dtype, shape: target }];
}

function sliceDim(d: Dim, start: number, end: number, step: number): Dim {
  if (step !== 1) {
    if (typeof d !== 'number') return freshDim('slice');
    let n = 0;
    const [s, e] = [clamp(start, d, step), clamp(end, d, step)];
    for (let i = s; step > 0 ? i < e : i > e; i += step) n++;
    return n;
  }
  if (typeof d === 'number') return Math.max(0, clamp(end, d, 1) - clamp(start, d, 1));
  const endless = end >= 2 ** 31;
  if (start >= 0 && endless) return start === 0 ? d : dimSum([d, -start]);
  if (start >= 0 && end >= 0) return end - start;
  if (start < 0 && endless) return -start;
  if (start < 0 && end < 0) return end - start;
  return freshDim('slice');
}

function clamp(i: number, d: number, step: number): number {
  const v = i < 0 ? i + d : i;
  return step > 0 ? Math.min(Math.max(v, 0), d) : Math.min(Math.max(v, -1), d - 1);
}

function concatShape(c: InferContext): OutputInfo[] {
  const first = c.input(0);
  const axis = normalizeAxis(c.int('axis'), first.shape.length);
  for (const t of c.inputs) {
    if (!t || t.shape.length !== first.shape.length || t.shape.some((d, i) => i !== axis && d !== first.shape[i])) {
      throw new ShapeError(`inputs must agree on every dim but axis ${axis}`);
    }
  }
  const shape = [...first.shape];
  shape[axis] = dimSum(c.inputs.map((t) => t!.shape[axis]!));
  const values = c.inputs.every((t) => t!.value) ? c.inputs.flatMap((t) => t!.value!) : undefined;
  return [{ dtype: first.dtype, shape, ...(values && first.shape.length === 1 ? { value: values } : {}) }];
}

function splitShape(c: InferContext): OutputInfo[] {
  const x = c.input(0);
  const axis = normalizeAxis(c.int('axis', 0), x.shape.length);
  const d = x.shape[axis]!;
  if (c.inputs[1] && !c.inputs[1].value) {
    if (c.hint?.length !== c.outputCount)
      throw new ShapeError('split sizes known only at runtime need an output shape hint per output');
    return c.hint.map((shape) => ({ dtype: x.dtype, shape }));
  }
  const sizes: Dim[] = c.inputs[1]?.value
    ? [...c.inputs[1].value]
    : Array(c.int('num_outputs')).fill(dimQuotient(d, c.int('num_outputs')) ?? freshDim('split'));
  if (sizes.length !== c.outputCount)
    throw new ShapeError(`split makes ${sizes.length} outputs but ${c.outputCount} were asked for`);
  if (typeof d === 'number' && sizes.every((s) => typeof s === 'number') && dimSum(sizes) !== d) {
    throw new ShapeError(`split sizes [${sizes.join(', ')}] do not add up to dim ${d}`);
  }
  return sizes.map((s) => ({ dtype: x.dtype, shape: x.shape.map((v, i) => (i === axis ? s : v)) }));
}

function gatherShape(c: InferContext): OutputInfo[] {
  const data = c.input(0);
  const idx = c.input(1);
  const axis = normalizeAxis(c.int('axis', 0), data.shape.length);
  const shape = [...data.shape.slice(0, axis), ...idx.shape, ...data.shape.slice(axis + 1)];
  const value =
    data.value && idx.value && data.shape.length === 1
      ? idx.value.map((i) => data.value![i < 0 ? i + data.value!.length : i]!)
      : undefined;
  return [{ dtype: data.dtype, shape, ...(value ? { value } : {}) }];
}

const sameAsData = (c: InferContext): OutputInfo[] => [{ dtype: c.input(0).dtype, shape: c.input(0).shape }];

export const tensorOps = {
  Reshape: {
    inputs: [
      { name: 'data', types: ALL_TYPES },
      { name: 'shape', types: INDEX, rank: 1 },
    ],
    infer: reshape,
  },
  Expand: {
    inputs: [
      { name: 'input', types: ALL_TYPES },
      { name: 'shape', types: INDEX, rank: 1 },
    ],
    infer: (c) => [
      { dtype: c.input(0).dtype, shape: broadcastShapes(c.input(0).shape, shapeFromInput(c, 1, 'expand')) },
    ],
  },
  Transpose: {
    inputs: [{ name: 'data', types: ALL_TYPES }],
    attrs: { perm: { kind: 'ints' } },
    infer: (c) => {
      const s = c.input(0).shape;
      const perm = c.ints('perm', [...s.keys()].reverse());
      if (perm.length !== s.length || [...perm].sort().some((p, i) => p !== i))
        throw new ShapeError(`perm [${perm.join(', ')}] is not a permutation of rank ${s.length}`);
      return [{ dtype: c.input(0).dtype, shape: perm.map((p) => s[p]!) }];
    },
  },
  Unsqueeze: {
    inputs: [{ name: 'data', types: ALL_TYPES }, axesInput],
    infer: (c) => {
      const x = c.input(0);
      const rank = x.shape.length + c.input(1).value!.length;
      const axes = c.input(1).value!.map((a) => normalizeAxis(a, rank));
      const rest = [...x.shape];
      const shape = Array.from({ length: rank }, (_, i) => (axes.includes(i) ? 1 : rest.shift()!));
      return [{ dtype: x.dtype, shape, ...(x.value ? { value: x.value } : {}) }];
    },
  },
  Squeeze: {
    inputs: [{ name: 'data', types: ALL_TYPES }, axesInput],
    infer: (c) => {
      const x = c.input(0);
      const axes = c.input(1).value!.map((a) => normalizeAxis(a, x.shape.length));
      for (const a of axes)
        if (typeof x.shape[a] === 'number' && x.shape[a] !== 1)
          throw new ShapeError(`cannot squeeze axis ${a} of size ${x.shape[a]}`);
      return [
        { dtype: x.dtype, shape: x.shape.filter((_, i) => !axes.includes(i)), ...(x.value ? { value: x.value } : {}) },
      ];
    },
  },
  Concat: {
    inputs: [{ name: 'inputs', types: ALL_TYPES, sameTypeAs: 0 }],
    variadic: true,
    attrs: { axis: { kind: 'int', required: true } },
    infer: concatShape,
  },
  Split: {
    inputs: [
      { name: 'input', types: ALL_TYPES },
      { name: 'split', types: INDEX, rank: 1, optional: true },
    ],
    attrs: { axis: { kind: 'int' }, num_outputs: { kind: 'int' } },
    infer: splitShape,
  },
  Slice: {
    inputs: [
      { name: 'data', types: ALL_TYPES },
      { name: 'starts', types: INDEX, rank: 1, constant: true },
      { name: 'ends', types: INDEX, rank: 1, constant: true },
      { ...axesInput, optional: true },
      { name: 'steps', types: INDEX, rank: 1, optional: true, constant: true },
    ],
    infer: (c) => {
      const x = c.input(0);
      const starts = c.input(1).value!;
      const ends = c.input(2).value!;
      const axes = (c.inputs[3]?.value ?? starts.map((_, i) => i)).map((a) => normalizeAxis(a, x.shape.length));
      const steps = c.inputs[4]?.value ?? starts.map(() => 1);
      if (ends.length !== starts.length || axes.length !== starts.length || steps.length !== starts.length)
        throw new ShapeError('starts, ends, axes and steps must have one entry per sliced axis');
      const shape = [...x.shape];
      axes.forEach((a, i) => (shape[a] = sliceDim(x.shape[a]!, starts[i]!, ends[i]!, steps[i]!)));
      return [{ dtype: x.dtype, shape }];
    },
  },
  Pad: {
    inputs: [
      { name: 'data', types: ALL_TYPES },
      { name: 'pads', types: INDEX, rank: 1 },
      { name: 'constant_value', types: ALL_TYPES, optional: true, sameTypeAs: 0 },
    ],
    attrs: { mode: { kind: 'string' } },
    infer: (c) => {
      const x = c.input(0);
      if (!c.input(1).value) return [{ dtype: x.dtype, shape: c.hint?.[0] ?? x.shape.map(() => freshDim('pad')) }];
      const pads = c.input(1).value!;
      const r = x.shape.length;
      if (pads.length !== 2 * r) throw new ShapeError(`pads has ${pads.length} entries, rank ${r} needs ${2 * r}`);
      return [
        {
          dtype: x.dtype,
          shape: x.shape.map((d, i) => (pads[i]! + pads[i + r]! === 0 ? d : dimSum([d, pads[i]! + pads[i + r]!]))),
        },
      ];
    },
  },
  Gather: {
    inputs: [
      { name: 'data', types: ALL_TYPES },
      { name: 'indices', types: INT_TYPES },
    ],
    attrs: { axis: { kind: 'int' } },
    infer: gatherShape,
  },
  GatherElements: {
    inputs: [
      { name: 'data', types: ALL_TYPES },
      { name: 'indices', types: INT_TYPES },
    ],
    attrs: { axis: { kind: 'int' } },
    infer: (c) => {
      if (c.input(0).shape.length !== c.input(1).shape.length)
        throw new ShapeError('data and indices must have the same rank');
      return [{ dtype: c.input(0).dtype, shape: c.input(1).shape }];
    },
  },
  ScatterElements: {
    inputs: [
      { name: 'data', types: ALL_TYPES },
      { name: 'indices', types: INT_TYPES },
      { name: 'updates', types: ALL_TYPES, sameTypeAs: 0 },
    ],
    attrs: { axis: { kind: 'int' }, reduction: { kind: 'string' } },
    infer: sameAsData,
  },
  ScatterND: {
    inputs: [
      { name: 'data', types: ALL_TYPES },
      { name: 'indices', types: INDEX },
      { name: 'updates', types: ALL_TYPES, sameTypeAs: 0 },
    ],
    attrs: { reduction: { kind: 'string' } },
    infer: sameAsData,
  },
  Trilu: {
    inputs: [
      { name: 'input', types: ALL_TYPES, rank: [2, 8] },
      { name: 'k', types: INDEX, rank: 0, optional: true },
    ],
    attrs: { upper: { kind: 'int' } },
    infer: sameAsData,
  },
  Cast: {
    inputs: [{ name: 'input', types: ALL_TYPES }],
    attrs: { to: { kind: 'int', required: true } },
    infer: (c) => {
      const to = (Object.keys(onnxTypeCode) as DType[]).find((d) => onnxTypeCode[d] === c.int('to'));
      if (!to) throw new ShapeError(`Cast to ONNX type ${c.int('to')} is not supported`);
      return [{ dtype: to, shape: c.input(0).shape, ...(c.input(0).value ? { value: c.input(0).value } : {}) }];
    },
  },
  Shape: {
    inputs: [{ name: 'data', types: ALL_TYPES }],
    attrs: { start: { kind: 'int' }, end: { kind: 'int' } },
    infer: (c) => {
      const s = c.input(0).shape;
      const dims = s.slice(
        normalizeAxis(c.int('start', 0), s.length + 1),
        c.int('end', s.length) < 0 ? s.length + c.int('end', s.length) : c.int('end', s.length),
      );
      return [{ dtype: 'int64', shape: [dims.length], ...(isStaticShape(dims) ? { value: dims } : {}) }];
    },
  },
  Size: {
    inputs: [{ name: 'data', types: ALL_TYPES }],
    infer: (c) => [
      {
        dtype: 'int64',
        shape: [],
        ...(isStaticShape(c.input(0).shape) ? { value: [Number(dimProduct(c.input(0).shape))] } : {}),
      },
    ],
  },
  ConstantOfShape: {
    inputs: [{ name: 'input', types: INDEX, rank: 1 }],
    attrs: { value: { kind: 'tensor' } },
    infer: (c) => {
      const v = c.attrs['value'];
      const dtype = typeof v === 'object' && v !== null && 'tensor' in v ? v.tensor.dtype : 'float32';
      return [{ dtype, shape: shapeFromInput(c, 0, 'constantOfShape') }];
    },
  },
  Range: {
    inputs: [
      { name: 'start', types: NUMERIC_TYPES, rank: 0 },
      { name: 'limit', types: NUMERIC_TYPES, rank: 0, sameTypeAs: 0 },
      { name: 'delta', types: NUMERIC_TYPES, rank: 0, sameTypeAs: 0 },
    ],
    infer: (c) => {
      const [s, l, d] = [0, 1, 2].map((i) => c.input(i).value?.[0]);
      const known = s !== undefined && l !== undefined && d !== undefined;
      const shape: Shape = known ? [Math.max(0, Math.ceil((l - s) / d))] : (c.hint?.[0] ?? [freshDim('range')]);
      return [{ dtype: c.input(0).dtype, shape }];
    },
  },
} satisfies Record<string, OpSpec>;
