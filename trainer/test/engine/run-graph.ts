import { Graph } from '../../src/engine/graph.js';
import type { Tensor } from '../../src/engine/graph.js';
import type { HostTensor } from '../../src/engine/host-tensor.js';
import { Runtime } from '../../src/engine/runtime.js';
import type { Shape } from '../../src/engine/shape.js';
import type { DType } from '../../src/engine/dtype.js';

/** Builds a one-off graph from declared inputs, runs it once on real onnxruntime, returns the output's values. */
export async function evaluate(
  inputs: { name: string; dtype: DType; shape: Shape; value: HostTensor }[],
  build: (xs: Tensor[]) => Tensor,
): Promise<HostTensor> {
  const g = new Graph('evaluate');
  const xs = inputs.map((i) => g.input(i.name, i.dtype, i.shape));
  g.output(build(xs), 'out');
  const rt = await Runtime.create(g, { intraOpNumThreads: 1 });
  try {
    return (await rt.run(Object.fromEntries(inputs.map((i) => [i.name, i.value]))))['out']!;
  } finally {
    await rt.release();
  }
}

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`length ${a.length} vs ${b.length}`);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}
