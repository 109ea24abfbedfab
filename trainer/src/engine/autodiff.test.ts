import { describe, expect, test } from 'vitest';
import { gradients } from './autodiff.js';
import { backwardRules } from './backward.js';
import { Graph, type Tensor } from './graph.js';
import { f64 } from './host-tensor.js';
import * as o from './ops.js';
import { Runtime } from './runtime.js';
import { liveNodes } from './serialize.js';

describe('autodiff engine', () => {
  test('differentiates only what is asked: no weight gradient for a frozen matrix', () => {
    const g = new Graph();
    const x = g.input('x', 'float64', ['n', 3]);
    const w = g.weight('w', f64([3, 3], Array(9).fill(0.5)));
    const b = g.input('b', 'float64', [3, 3]);
    const loss = o.reduceSum(o.matmul(o.matmul(x, w), b), [], false);
    const [gb] = gradients(loss, [b]);
    g.output(gb!, 'grad_b');
    const live = liveNodes(g);
    // forward x·w and (x·w)·b, then (x·w)ᵀ·g for b; nothing differentiates the first MatMul
    expect(live.filter((n) => n.op === 'MatMul')).toHaveLength(3);
    expect(live.filter((n) => n.name.startsWith(`grad/${live[0]!.name}/`))).toEqual([]);
  });

  test('gradient of a shared input sums every path', async () => {
    const g = new Graph();
    const x = g.input('x', 'float64', [2]);
    const y = o.add(o.mul(x, x), o.mul(x, 3));
    const [gx] = gradients(o.reduceSum(y, [], false), [x]);
    g.output(gx!, 'gx');
    const rt = await Runtime.create(g, { intraOpNumThreads: 1 });
    const out = await rt.run({ x: f64([2], [1, -2]) });
    expect(Array.from(out['gx']!.data as Float64Array)).toEqual([5, -1]);
    await rt.release();
  });

  test('an unreachable tensor gets a zero gradient; stopGradient cuts a path', async () => {
    const g = new Graph();
    const x = g.input('x', 'float64', [2]);
    const z = g.input('z', 'float64', [2]);
    const loss = o.reduceSum(o.mul(x, o.stopGradient(x)), [], false);
    const [gx, gz] = gradients(loss, [x, z]);
    g.output(gx!, 'gx');
    g.output(gz!, 'gz');
    const rt = await Runtime.create(g, { intraOpNumThreads: 1 });
    const out = await rt.run({ x: f64([2], [3, 4]), z: f64([2], [1, 1]) });
    expect(Array.from(out['gx']!.data as Float64Array)).toEqual([3, 4]);
    expect(Array.from(out['gz']!.data as Float64Array)).toEqual([0, 0]);
    await rt.release();
  });

  test("a reduction's gradient stays broadcast when a full-shaped one is added to it, and is expanded when read alone", async () => {
    // softmax's backward adds the sum's (broadcast) gradient to exp's: no Expand is needed.
    const soft = new Graph();
    const x = soft.input('x', 'float64', ['n', 3]);
    const e = o.exp(x);
    const p = o.mul(e, o.reciprocal(o.reduceSum(e, [-1])));
    soft.output(gradients(o.reduceSum(o.mul(p, x), [], false), [x])[0]!, 'g');
    // Nor for the loss's own sum: the Mul below it reads that gradient unexpanded and broadcasts it.
    expect(liveNodes(soft).filter((n) => n.op === 'Expand')).toEqual([]);
    // A sum alone: its gradient must still have x's shape.
    const sum = new Graph();
    const y = sum.input('y', 'float64', ['n', 3]);
    sum.output(gradients(o.reduceSum(o.mul(o.reduceSum(y, [-1]), 2), [], false), [y])[0]!, 'g');
    const runs = await Promise.all([soft, sum].map((graph) => Runtime.create(graph, { intraOpNumThreads: 1 })));
    const [gSoft, gSum] = await Promise.all(
      runs.map((rt, k) => rt.run({ [k ? 'y' : 'x']: f64([2, 3], [1, 2, 3, 0, 0, 0]) })),
    );
    expect(gSum!['g']!.dims).toEqual([2, 3]);
    expect(Array.from(gSum!['g']!.data as Float64Array)).toEqual([2, 2, 2, 2, 2, 2]);
    // d/dx Σ softmax(x)·x at a uniform row: p_i (1 + x_i − Σ p x) = 1/3.
    for (const v of (gSoft!['g']!.data as Float64Array).slice(3)) expect(v).toBeCloseTo(1 / 3, 12);
    await Promise.all(runs.map((rt) => rt.release()));
  });

  test('a transposed view read by MatMuls gets its gradient as products, with no Transpose run on it', () => {
    const g = new Graph();
    const x = g.input('x', 'float64', ['b', 3, 4]);
    const [w1, w2] = [g.input('w1', 'float64', [5, 4]), g.input('w2', 'float64', [6, 4])];
    const view = o.transpose(x, [0, 2, 1]);
    const loss = o.reduceSum(
      o.add(o.reduceSum(o.matmul(w1, view), []), o.reduceSum(o.matmul(w2, view), [])),
      [],
      false,
    );
    g.output(gradients(loss, [x])[0]!, 'gx');
    // x's gradient is Σ gᵢᵀ·wᵢ: every Transpose left is a MatMul operand, which onnxruntime folds
    // into the MatMul; none is run on the summed gradient.
    const live = liveNodes(g);
    const readers = (t: Tensor) => live.filter((n) => n.inputs.includes(t)).map((n) => n.op);
    const transposes = live.filter((n) => n.op === 'Transpose');
    expect(transposes.length).toBeGreaterThan(0);
    for (const n of transposes) expect(new Set(readers(n.outputs[0]!))).toEqual(new Set(['MatMul']));
  });

  test('a missing rule names the op and node', () => {
    const g = new Graph();
    const x = g.input('x', 'float64', [2]);
    const loss = o.reduceSum(o.exp(x), [], false);
    const { Exp: _, ...withoutExp } = backwardRules;
    expect(() => gradients(loss, [x], { rules: withoutExp })).toThrow(/no backward rule for op Exp \(node 'Exp_\d+'\)/);
  });

  test('a rule must return one gradient per input', () => {
    const g = new Graph();
    const x = g.input('x', 'float64', [2]);
    const loss = o.reduceSum(o.mul(x, x), [], false);
    const broken = { ...backwardRules, Mul: () => [undefined] };
    expect(() => gradients(loss, [x], { rules: broken })).toThrow(
      /backward rule for Mul returned 1 gradients for 2 inputs/,
    );
  });

  test('a rule returning the wrong shape is caught', () => {
    const g = new Graph();
    const x = g.input('x', 'float64', [2, 3]);
    const loss = o.reduceSum(o.exp(x), [], false);
    const broken = {
      ...backwardRules,
      Exp: (c: Parameters<NonNullable<typeof backwardRules.Exp>>[0]) => [o.concat([c.g(), c.g()], 0)],
    };
    expect(() => gradients(loss, [x], { rules: broken })).toThrow(/gradient dim 0 is 4, expected 2/);
  });

  test('only float tensors can be differentiated', () => {
    const g = new Graph();
    const ids = g.input('ids', 'int64', [2]);
    expect(() => gradients(o.reduceSum(o.cast(ids, 'float64'), [], false), [ids])).toThrow(
      /only float tensors have gradients/,
    );
  });
});
