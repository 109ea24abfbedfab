import { gradients } from './autodiff.js';
import type { DType } from './dtype.js';
import { Graph } from './graph.js';
import type { Tensor } from './graph.js';
import type { HostTensor } from './host-tensor.js';
import { elementCount, f64, hostTensor } from './host-tensor.js';
import * as o from './ops.js';
import { seededRandom, uniform } from './random.js';
import { Runtime } from './runtime.js';
import type { Shape } from './shape.js';

/**
 * Finite-difference checks in float64: analytic gradients from the backward rules against central
 * differences of the same graph's forward pass.
 */
export interface CheckInput {
  name: string;
  /** Runtime dims. */
  dims: number[];
  /** Declared shape when it should differ from dims (symbolic dims exercise the Shape-op paths). */
  shape?: Shape;
  dtype?: DType;
  /** Fixed values (indices, masks); otherwise uniform in `range`. */
  values?: number[];
  range?: [number, number];
  /** Float inputs are differentiated unless this is false. */
  differentiable?: boolean;
}

export interface GradcheckCase {
  /** The op whose rule this case covers. */
  op: string;
  label: string;
  inputs: CheckInput[];
  build: (xs: Tensor[]) => Tensor;
}

export interface TensorDiff {
  name: string;
  maxAbsDiff: number;
  maxAbsGrad: number;
  /** max |analytic − numeric| / (atol + rtol·|numeric|) over the checked entries: ≤ 1 passes. */
  worstRatio: number;
}

export interface CheckTolerance {
  eps?: number;
  atol?: number;
  rtol?: number;
  seed?: number;
}

export async function gradcheck(c: GradcheckCase, tol: CheckTolerance = {}): Promise<TensorDiff[]> {
  const random = seededRandom(tol.seed ?? 7);
  const feeds: Record<string, HostTensor> = {};
  for (const i of c.inputs) feeds[i.name] = hostValue(i, random);
  const probe = new Graph(`${c.label}-probe`);
  probe.output(c.build(declare(probe, c.inputs)), 'out');
  const dims = (await run(probe, feeds))['out']!.dims;
  const g = new Graph(c.label);
  const xs = declare(g, c.inputs);
  const out = c.build(xs);
  const w = g.input('loss_weights', 'float64', out.shape);
  g.output(o.reduceSum(o.mul(out, w), [], false), 'loss');
  const wrt = xs.filter((_, k) => isDifferentiable(c.inputs[k]!));
  gradients(g.outputs[0]!, wrt).forEach((grad, k) => g.output(grad, `grad_${wrt[k]!.name}`));
  feeds['loss_weights'] = f64(dims, uniform(random, elementCount(dims), -1, 1));
  const runtime = await Runtime.create(g, { intraOpNumThreads: 1 });
  try {
    const analytic = await runtime.run(feeds);
    const loss = async (f: Record<string, HostTensor>) => (await runtime.run(f))['loss']!.data[0] as number;
    const diffs: TensorDiff[] = [];
    for (const x of wrt) {
      const all = [...Array(feeds[x.name]!.data.length).keys()];
      const numeric = await numericGradient(loss, feeds, x.name, all, tol.eps);
      diffs.push(compareGradients(x.name, analytic[`grad_${x.name}`]!.data as Float64Array, all, numeric, tol));
    }
    return diffs;
  } finally {
    await runtime.release();
  }
}

/** Central differences of a scalar loss for the chosen entries of one float64 feed. */
export async function numericGradient(
  loss: (feeds: Record<string, HostTensor>) => Promise<number>,
  feeds: Record<string, HostTensor>,
  name: string,
  indices: readonly number[],
  eps = 1e-6,
): Promise<number[]> {
  const base = feeds[name]!;
  const data = Float64Array.from(base.data as Float64Array);
  const perturbed = { ...feeds, [name]: hostTensor('float64', base.dims, data) };
  const out: number[] = [];
  for (const i of indices) {
    const v = data[i]!;
    data[i] = v + eps;
    const up = await loss(perturbed);
    data[i] = v - eps;
    const down = await loss(perturbed);
    data[i] = v;
    out.push((up - down) / (2 * eps));
  }
  return out;
}

export function compareGradients(
  name: string,
  analytic: ArrayLike<number>,
  indices: readonly number[],
  numeric: readonly number[],
  tol: CheckTolerance = {},
): TensorDiff {
  const atol = tol.atol ?? 1e-6;
  const rtol = tol.rtol ?? 1e-5;
  let maxAbsDiff = 0;
  let maxAbsGrad = 0;
  let worstRatio = 0;
  indices.forEach((idx, k) => {
    const a = analytic[idx]!;
    const n = numeric[k]!;
    const diff = Math.abs(a - n);
    maxAbsDiff = Math.max(maxAbsDiff, Number.isNaN(diff) ? Infinity : diff);
    maxAbsGrad = Math.max(maxAbsGrad, Math.abs(n));
    worstRatio = Math.max(worstRatio, Number.isNaN(diff) ? Infinity : diff / (atol + rtol * Math.abs(n)));
  });
  return { name, maxAbsDiff, maxAbsGrad, worstRatio };
}

function isDifferentiable(i: CheckInput): boolean {
  return (i.dtype ?? 'float64') === 'float64' && i.differentiable !== false;
}

function declare(g: Graph, inputs: readonly CheckInput[]): Tensor[] {
  return inputs.map((i) => g.input(i.name, i.dtype ?? 'float64', i.shape ?? i.dims));
}

function hostValue(i: CheckInput, random: () => number): HostTensor {
  const dtype = i.dtype ?? 'float64';
  const n = elementCount(i.dims);
  if (dtype === 'float64') return f64(i.dims, i.values ?? uniform(random, n, ...(i.range ?? [-1, 1])));
  if (!i.values) throw new Error(`gradcheck input '${i.name}' (${dtype}) needs explicit values`);
  if (dtype === 'int64')
    return hostTensor(
      'int64',
      i.dims,
      BigInt64Array.from(i.values, (v) => BigInt(v)),
    );
  if (dtype === 'bool') return hostTensor('bool', i.dims, Uint8Array.from(i.values));
  throw new Error(`gradcheck input '${i.name}': dtype ${dtype} is not supported here`);
}

async function run(g: Graph, feeds: Record<string, HostTensor>): Promise<Record<string, HostTensor>> {
  const r = await Runtime.create(g, { intraOpNumThreads: 1 });
  try {
    return await r.run(feeds);
  } finally {
    await r.release();
  }
}
