import type { GradcheckCase } from '../../src/engine/gradcheck.js';
import * as o from '../../src/engine/ops.js';

/**
 * Finite-difference cases, at least one per backward rule; binary ops include broadcasting in
 * both directions and symbolic dims (which route gradients through Shape ops).
 */
const BIG = 2 ** 62;

const binaryCases = (
  op: 'Add' | 'Sub' | 'Mul' | 'Div' | 'Pow' | 'Max' | 'Min',
  fn: (a: never, b: never) => never,
  range?: [number, number],
  rangeB?: [number, number],
): GradcheckCase[] => {
  const f = fn as unknown as (a: o.Operand, b: o.Operand) => ReturnType<typeof o.add>;
  const a = (dims: number[], shape?: (number | string)[]) => ({
    name: 'a',
    dims,
    ...(shape ? { shape } : {}),
    ...(range ? { range } : {}),
  });
  const b = (dims: number[], shape?: (number | string)[]) => ({
    name: 'b',
    dims,
    ...(shape ? { shape } : {}),
    ...((rangeB ?? range) ? { range: rangeB ?? range } : {}),
  });
  return [
    { op, label: `${op} same shape`, inputs: [a([2, 3]), b([2, 3])], build: ([x, y]) => f(x!, y!) },
    { op, label: `${op} broadcast [2,3]·[3]`, inputs: [a([2, 3]), b([3])], build: ([x, y]) => f(x!, y!) },
    {
      op,
      label: `${op} broadcast both [2,1,3]·[4,1]`,
      inputs: [a([2, 1, 3]), b([4, 1])],
      build: ([x, y]) => f(x!, y!),
    },
    { op, label: `${op} symbolic [N,3]·[1,3]`, inputs: [a([2, 3], ['N', 3]), b([1, 3])], build: ([x, y]) => f(x!, y!) },
    { op, label: `${op} scalar [1]·[2,2]`, inputs: [a([1]), b([2, 2])], build: ([x, y]) => f(x!, y!) },
  ];
};

const unary = (
  op: string,
  fn: (x: ReturnType<typeof o.add>) => ReturnType<typeof o.add>,
  range?: [number, number],
): GradcheckCase => ({
  op,
  label: `${op} [2,3]`,
  inputs: [{ name: 'x', dims: [2, 3], ...(range ? { range } : {}) }],
  build: ([x]) => fn(x!),
});

const x = (dims: number[], shape?: (number | string)[]) => ({ name: 'x', dims, ...(shape ? { shape } : {}) });
const idx = (dims: number[], values: number[]) => ({ name: 'idx', dims, dtype: 'int64' as const, values });

export const gradcheckCases: GradcheckCase[] = [
  ...binaryCases('Add', o.add as never),
  ...binaryCases('Sub', o.sub as never),
  ...binaryCases('Mul', o.mul as never),
  ...binaryCases('Div', o.div as never, undefined, [0.5, 1.5]),
  ...binaryCases('Pow', o.pow as never, [0.5, 1.5], [0.5, 2]),
  ...binaryCases('Max', o.max as never),
  ...binaryCases('Min', o.min as never),
  { op: 'Mul', label: 'Mul of a tensor by itself (x·x)', inputs: [x([2, 3])], build: ([t]) => o.mul(t!, t!) },
  {
    op: 'Pow',
    label: 'Pow by a constant exponent (x^−½)',
    inputs: [{ name: 'x', dims: [2, 3], range: [0.5, 2] }],
    build: ([t]) => o.pow(t!, -0.5),
  },
  // A reduction hands its gradient on unexpanded (1 on the reduced axis); these rules read it so.
  {
    op: 'Mul',
    label: 'Mul under a mean (broadcast gradient) [2,3]·[3]',
    inputs: [
      { name: 'a', dims: [2, 3] },
      { name: 'b', dims: [3] },
    ],
    build: ([a, b]) => o.reduceMean(o.mul(a!, b!), [-1]),
  },
  {
    op: 'Mul',
    label: 'Mul under a sum, broadcast gradient and missing leading axis [3]·[2,1]',
    inputs: [
      { name: 'a', dims: [3] },
      { name: 'b', dims: [2, 1] },
    ],
    build: ([a, b]) => o.reduceSum(o.mul(a!, b!), [-1]),
  },
  {
    op: 'Mul',
    label: 'Mul under a sum, symbolic [N,3]·[1]',
    inputs: [
      { name: 'a', dims: [2, 3], shape: ['N', 3] },
      { name: 'b', dims: [1] },
    ],
    build: ([a, b]) => o.reduceSum(o.mul(a!, b!), [-1]),
  },
  { op: 'Mul', label: 'x·x under a mean', inputs: [x([2, 3])], build: ([t]) => o.reduceMean(o.mul(t!, t!), [-1]) },
  { op: 'Exp', label: 'Exp under a sum', inputs: [x([2, 3])], build: ([t]) => o.reduceSum(o.exp(t!), [-1]) },
  { op: 'Mul', label: 'Mul by a plain number', inputs: [x([2, 3])], build: ([t]) => o.mul(t!, 3) },
  unary('Neg', o.neg),
  unary('Abs', o.abs),
  unary('Exp', o.exp),
  unary('Log', o.log, [0.5, 2]),
  unary('Sqrt', o.sqrt, [0.5, 2]),
  unary('Reciprocal', o.reciprocal, [0.5, 2]),
  unary('Sigmoid', o.sigmoid, [-3, 3]),
  unary('Tanh', o.tanh, [-2, 2]),
  unary('Sin', o.sin, [-3, 3]),
  unary('Cos', o.cos, [-3, 3]),
  unary('Identity', o.identity),
  unary('Cast', (t) => t.graph.node('Cast', [t], { to: 11 })[0]!),
  {
    op: 'Where',
    label: 'Where cond[2,3] x[2,3] y[3]',
    inputs: [
      { name: 'c', dims: [2, 3], dtype: 'bool', values: [1, 0, 1, 0, 0, 1] },
      { name: 'a', dims: [2, 3] },
      { name: 'b', dims: [3] },
    ],
    build: ([c, a, b]) => o.where(c!, a!, b!),
  },
  {
    op: 'Where',
    label: 'Where cond[3] broadcast over x[N,3]',
    inputs: [
      { name: 'c', dims: [3], dtype: 'bool', values: [1, 0, 1] },
      { name: 'a', dims: [2, 3], shape: ['N', 3] },
      { name: 'b', dims: [2, 3], shape: ['N', 3] },
    ],
    build: ([c, a, b]) => o.where(c!, a!, b!),
  },
  {
    op: 'MatMul',
    label: 'MatMul [2,3]@[3,4]',
    inputs: [
      { name: 'a', dims: [2, 3] },
      { name: 'b', dims: [3, 4] },
    ],
    build: ([a, b]) => o.matmul(a!, b!),
  },
  {
    op: 'MatMul',
    label: 'MatMul batch·weight [2,2,3]@[3,4]',
    inputs: [
      { name: 'a', dims: [2, 2, 3] },
      { name: 'b', dims: [3, 4] },
    ],
    build: ([a, b]) => o.matmul(a!, b!),
  },
  {
    op: 'MatMul',
    label: 'MatMul broadcast batch [2,1,2,3]@[3,3,2]',
    inputs: [
      { name: 'a', dims: [2, 1, 2, 3] },
      { name: 'b', dims: [3, 3, 2] },
    ],
    build: ([a, b]) => o.matmul(a!, b!),
  },
  {
    op: 'MatMul',
    label: 'MatMul weight·batch [3,4]@[2,4,2]',
    inputs: [
      { name: 'a', dims: [3, 4] },
      { name: 'b', dims: [2, 4, 2] },
    ],
    build: ([a, b]) => o.matmul(a!, b!),
  },
  {
    op: 'MatMul',
    label: 'MatMul symbolic [B,T,3]@[B,3,T]',
    inputs: [
      { name: 'a', dims: [2, 2, 3], shape: ['B', 'T', 3] },
      { name: 'b', dims: [2, 3, 2], shape: ['B', 3, 'T'] },
    ],
    build: ([a, b]) => o.matmul(a!, b!),
  },
  { op: 'ReduceSum', label: 'ReduceSum axis 1 keepdims', inputs: [x([2, 3, 2])], build: ([t]) => o.reduceSum(t!, [1]) },
  {
    op: 'ReduceSum',
    label: 'ReduceSum axes 0,2 dropped',
    inputs: [x([2, 3, 2])],
    build: ([t]) => o.reduceSum(t!, [0, -1], false),
  },
  { op: 'ReduceSum', label: 'ReduceSum all', inputs: [x([2, 3])], build: ([t]) => o.reduceSum(t!, [], false) },
  {
    op: 'ReduceSum',
    label: 'ReduceSum symbolic [N,3] axis 0',
    inputs: [x([4, 3], ['N', 3])],
    build: ([t]) => o.reduceSum(t!, [0], false),
  },
  { op: 'ReduceMean', label: 'ReduceMean axes 0,2', inputs: [x([2, 3, 2])], build: ([t]) => o.reduceMean(t!, [0, 2]) },
  {
    op: 'ReduceMean',
    label: 'ReduceMean symbolic [N,3] axis 0 (runtime count)',
    inputs: [x([4, 3], ['N', 3])],
    build: ([t]) => o.reduceMean(t!, [0], false),
  },
  {
    op: 'ReduceSumSquare',
    label: 'ReduceSumSquare last axis keepdims',
    inputs: [x([2, 3])],
    build: ([t]) => o.reduceSumSquare(t!, [-1]),
  },
  {
    op: 'ReduceSumSquare',
    label: 'ReduceSumSquare all',
    inputs: [x([2, 3])],
    build: ([t]) => o.reduceSumSquare(t!, [], false),
  },
  {
    op: 'ReduceSumSquare',
    label: 'ReduceSumSquare symbolic [N,3] axis 0 dropped',
    inputs: [x([4, 3], ['N', 3])],
    build: ([t]) => o.reduceSumSquare(t!, [0], false),
  },
  { op: 'ReduceMax', label: 'ReduceMax axis 1', inputs: [x([3, 4])], build: ([t]) => o.reduceMax(t!, [1], false) },
  { op: 'ReduceMax', label: 'ReduceMax all keepdims', inputs: [x([2, 3])], build: ([t]) => o.reduceMax(t!) },
  { op: 'Reshape', label: 'Reshape [2,3,2]→[3,4]', inputs: [x([2, 3, 2])], build: ([t]) => o.reshape(t!, [3, 4]) },
  {
    op: 'Reshape',
    label: 'Reshape symbolic [N,6]→[0,2,3]',
    inputs: [x([2, 6], ['N', 6])],
    build: ([t]) => o.reshape(t!, [0, 2, 3]),
  },
  { op: 'Expand', label: 'Expand [3,1]→[2,3,4]', inputs: [x([3, 1])], build: ([t]) => o.expand(t!, [2, 3, 4]) },
  {
    op: 'Transpose',
    label: 'Transpose perm 2,0,1',
    inputs: [x([2, 3, 4])],
    build: ([t]) => o.transpose(t!, [2, 0, 1]),
  },
  {
    op: 'Transpose',
    label: 'Transpose of a view read by two MatMuls (gradient transposed as products)',
    inputs: [x([2, 3, 4]), { name: 'a', dims: [2, 4] }, { name: 'b', dims: [5, 3] }],
    build: ([t, a, b]) => {
      const view = o.transpose(t!, [0, 2, 1]);
      return o.add(o.reduceSum(o.matmul(a!, view), [1]), o.reduceSum(o.matmul(view, o.transpose(b!)), [2]));
    },
  },
  { op: 'Unsqueeze', label: 'Unsqueeze axes 0,2', inputs: [x([2, 3])], build: ([t]) => o.unsqueeze(t!, [0, 2]) },
  { op: 'Squeeze', label: 'Squeeze axis 1', inputs: [x([2, 1, 3])], build: ([t]) => o.squeeze(t!, [1]) },
  {
    op: 'Concat',
    label: 'Concat axis 1',
    inputs: [
      { name: 'a', dims: [2, 3] },
      { name: 'b', dims: [2, 2] },
    ],
    build: ([a, b]) => o.concat([a!, b!], 1),
  },
  {
    op: 'Concat',
    label: 'Concat symbolic axis 0 [N,2]+[M,2]',
    inputs: [
      { name: 'a', dims: [2, 2], shape: ['N', 2] },
      { name: 'b', dims: [3, 2], shape: ['M', 2] },
    ],
    build: ([a, b]) => o.concat([a!, b!], 0),
  },
  {
    op: 'Split',
    label: 'Split sizes 2,3, second unused',
    inputs: [x([2, 5])],
    build: ([t]) => o.split(t!, [2, 3], 1)[0]!,
  },
  {
    op: 'Split',
    label: 'Split in two, product of halves',
    inputs: [x([2, 4])],
    build: ([t]) => {
      const [p, q] = o.split(t!, 2, 1);
      return o.mul(p!, q!);
    },
  },
  {
    op: 'Slice',
    label: 'Slice [4,5] rows 1:3 cols 0:-1',
    inputs: [x([4, 5])],
    build: ([t]) => o.slice(t!, [1, 0], [3, -1]),
  },
  {
    op: 'Slice',
    label: 'Slice symbolic [N,5] rows 1:end',
    inputs: [x([3, 5], ['N', 5])],
    build: ([t]) => o.slice(t!, [1], [BIG], [0]),
  },
  {
    op: 'Slice',
    label: 'Slice symbolic [N,3] rows 0:2 (runtime pad)',
    inputs: [x([4, 3], ['N', 3])],
    build: ([t]) => o.slice(t!, [0], [2], [0]),
  },
  {
    op: 'Slice',
    label: 'Slice symbolic [N,3] rows -2:end',
    inputs: [x([4, 3], ['N', 3])],
    build: ([t]) => o.slice(t!, [-2], [BIG], [0]),
  },
  { op: 'Pad', label: 'Pad [2,3] by 1,0 / 0,2', inputs: [x([2, 3])], build: ([t]) => o.pad(t!, [1, 0, 0, 2]) },
  {
    op: 'Gather',
    label: 'Gather rows with repeats',
    inputs: [{ name: 'x', dims: [5, 3] }, idx([2, 2], [0, 4, 4, 1])],
    build: ([t, i]) => o.gather(t!, i!, 0),
  },
  {
    op: 'Gather',
    label: 'Gather axis 1',
    inputs: [{ name: 'x', dims: [2, 4, 3] }, idx([3], [3, 0, 3])],
    build: ([t, i]) => o.gather(t!, i!, 1),
  },
  {
    op: 'GatherElements',
    label: 'GatherElements axis 1',
    inputs: [{ name: 'x', dims: [2, 4] }, idx([2, 3], [0, 3, 3, 1, 1, 2])],
    build: ([t, i]) => o.gatherElements(t!, i!, 1),
  },
  { op: 'Trilu', label: 'Trilu lower', inputs: [x([3, 4])], build: ([t]) => o.trilu(t!, false) },
  { op: 'Trilu', label: 'Trilu upper k=1', inputs: [x([2, 3, 3])], build: ([t]) => o.trilu(t!, true, 1) },
  {
    op: 'ScatterElements',
    label: 'ScatterElements (overwrite) into data along axis 0',
    inputs: [{ name: 'data', dims: [5] }, idx([3], [4, 0, 2]), { name: 'updates', dims: [3] }],
    build: ([d, i, u]) => o.scatterElements(d!, i!, u!, 0),
  },
  {
    op: 'ScatterElements',
    label: 'ScatterElements (add) with a repeated index, axis 1',
    inputs: [{ name: 'data', dims: [2, 3] }, idx([2, 2], [2, 2, 0, 1]), { name: 'updates', dims: [2, 2] }],
    build: ([d, i, u]) => o.scatterElements(d!, i!, u!, 1, 'add'),
  },
];
