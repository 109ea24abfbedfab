import { describe, expect, test } from 'vitest';
import { GraphError } from './errors.js';
import { Graph } from './graph.js';
import * as o from './ops.js';

describe('graph builder validates each node against the op table', () => {
  test('infers dtypes and symbolic shapes', () => {
    const g = new Graph();
    const x = g.input('x', 'float32', ['batch', 'seq', 8]);
    const w = g.input('w', 'float32', [8, 4]);
    const y = o.matmul(x, w);
    expect(y.shape).toEqual(['batch', 'seq', 4]);
    expect(o.reshape(y, [-1, 4]).shape).toEqual(['batch*seq', 4]);
    expect(o.reshape(o.reshape(y, [-1, 4]), [0, 2, 2]).shape).toEqual(['batch*seq', 2, 2]);
    expect(o.reduceSum(y, [1], false).shape).toEqual(['batch', 4]);
    expect(o.less(y, 0).dtype).toBe('bool');
    expect(o.split(y, [1, 3], -1).map((t) => t.shape)).toEqual([
      ['batch', 'seq', 1],
      ['batch', 'seq', 3],
    ]);
    expect(o.shape(y).shape).toEqual([3]);
  });

  test('static shapes fold to known values', () => {
    const g = new Graph();
    const x = g.input('x', 'float32', [2, 3]);
    expect(o.shape(x).value).toEqual([2, 3]);
    expect(o.size(x).value).toEqual([6]);
  });

  test('a wrong dtype names the node, op and input', () => {
    const g = new Graph();
    const a = g.input('a', 'float32', [2, 3]);
    const ids = g.input('ids', 'int64', [3, 2]);
    expect(() => g.scope('layer0', () => o.matmul(a, ids))).toThrow(
      /node 'layer0\/MatMul_\d+' \(MatMul\): input 1 \(B\) 'ids' int64\[3, 2\] must be one of float32/,
    );
  });

  test('wrong rank, input count, attribute and shape are reported', () => {
    const g = new Graph();
    const v = g.input('v', 'float32', [3]);
    const m = g.input('m', 'float32', [4, 5]);
    expect(() => o.matmul(v, m)).toThrow(/must have rank 2\.\.8, got 1/);
    expect(() => g.node('Add', [v])).toThrow(/expects 2 inputs \(A, B\), got 1/);
    expect(() => g.node('Transpose', [m], { permutation: [1, 0] })).toThrow(
      /unknown attribute 'permutation' \(known: perm\)/,
    );
    expect(() => o.matmul(m, m)).toThrow(GraphError);
    expect(() => o.matmul(m, m)).toThrow(/inner dims differ: \[4, 5\] @ \[4, 5\]/);
    expect(() => o.add(m, g.input('n', 'float32', [4, 3]))).toThrow(/cannot broadcast \[4, 5\] with \[4, 3\]/);
  });

  test('an op outside the table is named', () => {
    const g = new Graph();
    expect(() => g.node('Erf' as never, [g.input('x', 'float32', [1])])).toThrow(/node 'Erf_\d+' \(Erf\): unknown op/);
  });

  test('different symbols do not broadcast silently', () => {
    const g = new Graph();
    const a = g.input('a', 'float32', ['T', 4]);
    const b = g.input('b', 'float32', ['S', 4]);
    expect(() => o.add(a, b)).toThrow(/dim 2 from the end: T vs S/);
  });

  test('an input from another graph is refused', () => {
    const g = new Graph('one');
    const h = new Graph('two');
    expect(() => o.add(g.input('a', 'float32', [1]), h.input('b', 'float32', [1]))).toThrow(/belongs to graph 'two'/);
  });

  test('duplicate names are refused', () => {
    const g = new Graph();
    g.input('x', 'float32', [1]);
    expect(() => g.input('x', 'float32', [1])).toThrow(/'x' is already used/);
  });
});
