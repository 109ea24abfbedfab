import { describe, expect, test } from 'vitest';
import { RuntimeError } from './errors.js';
import { Graph } from './graph.js';
import { f32, i64, toNumbers } from './host-tensor.js';
import * as o from './ops.js';
import { Runtime } from './runtime.js';

function adapterGraph(): Graph {
  // y = x·Wᵀ + x·aᵀ·bᵀ: W is a frozen initializer, a and b are fed per call.
  const g = new Graph('adapter');
  const x = g.input('x', 'float32', ['batch', 2]);
  const a = g.input('a', 'float32', [1, 2]);
  const b = g.input('b', 'float32', [2, 1]);
  const w = g.weight('w', f32([2, 2], [1, 2, 3, 4]));
  const base = o.matmul(x, o.transpose(w));
  g.output(o.add(base, o.matmul(o.matmul(x, o.transpose(a)), o.transpose(b))), 'y');
  return g;
}

describe('runtime wrapper', () => {
  test('one session serves many calls; adapters change without a rebuild and weights are never fed', async () => {
    const rt = await Runtime.create(adapterGraph(), { intraOpNumThreads: 1 });
    const x = f32([1, 2], [1, 1]);
    const zero = await rt.run({ x, a: f32([1, 2], [0, 0]), b: f32([2, 1], [0, 0]) });
    expect(Array.from(zero['y']!.data as Float32Array)).toEqual([3, 7]);
    const tuned = await rt.run({ x, a: f32([1, 2], [1, 0]), b: f32([2, 1], [10, 20]) });
    expect(Array.from(tuned['y']!.data as Float32Array)).toEqual([13, 27]);
    await rt.release();
  });

  test('feeds are checked by name, dtype, rank, fixed dims and symbol bindings', async () => {
    const g = new Graph('feeds');
    const ids = g.input('ids', 'int64', ['batch', 'seq']);
    const mask = g.input('mask', 'int64', ['batch', 'seq']);
    g.output(o.add(ids, mask), 'sum');
    const rt = await Runtime.create(g, { intraOpNumThreads: 1 });
    const ok = i64([1, 2], [1, 2]);
    await expect(rt.run({ ids: ok })).rejects.toThrow(/input 'mask' \(int64\[batch, seq\]\) was not fed/);
    await expect(rt.run({ ids: ok, mask: ok, extra: ok })).rejects.toThrow(
      /unknown input 'extra' \(inputs: ids, mask\)/,
    );
    await expect(rt.run({ ids: ok, mask: f32([1, 2], [1, 1]) })).rejects.toThrow(
      /input 'mask' must be int64, got float32/,
    );
    await expect(rt.run({ ids: ok, mask: i64([2], [1, 1]) })).rejects.toThrow(/must have rank 2/);
    await expect(rt.run({ ids: ok, mask: i64([1, 3], [1, 1, 1]) })).rejects.toThrow(
      /dim 'seq' is 2 in input 'ids' dim 1 but 3 in input 'mask' dim 1/,
    );
    expect(toNumbers((await rt.run({ ids: ok, mask: ok }))['sum']!)).toEqual([2, 4]);
    await rt.release();
  });

  test('an aborted signal stops a run before it starts', async () => {
    const rt = await Runtime.create(adapterGraph(), { intraOpNumThreads: 1 });
    const controller = new AbortController();
    controller.abort();
    const feeds = { x: f32([1, 2], [1, 1]), a: f32([1, 2], [0, 0]), b: f32([2, 1], [0, 0]) };
    await expect(rt.run(feeds, { signal: controller.signal })).rejects.toThrow(/aborted/);
    await rt.release();
  });

  test('cuda without its binaries is a clear error; unknown providers are refused', async () => {
    await expect(Runtime.create(adapterGraph(), { executionProvider: 'cuda' })).rejects.toThrow(RuntimeError);
    await expect(Runtime.create(adapterGraph(), { executionProvider: 'cuda' })).rejects.toThrow(
      /execution provider 'cuda' is unavailable/,
    );
    await expect(Runtime.create(adapterGraph(), { executionProvider: 'tpu' as never })).rejects.toThrow(
      /must be 'cpu' or 'cuda', got "tpu"/,
    );
  });
});
