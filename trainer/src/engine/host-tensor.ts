import type { DType, TypedArrayOf } from './dtype.js';
import { RuntimeError } from './errors.js';

/** A tensor on the host: what goes into and comes out of a session, and what initializers hold. */
export interface HostTensor<D extends DType = DType> {
  readonly dtype: D;
  readonly dims: readonly number[];
  readonly data: TypedArrayOf[D];
}

export function elementCount(dims: readonly number[]): number {
  return dims.reduce((n, d) => n * d, 1);
}

/** Builds a host tensor, checking that the data length matches the dims. */
export function hostTensor<D extends DType>(
  dtype: D,
  dims: readonly number[],
  data: TypedArrayOf[D],
  label = 'tensor',
): HostTensor<D> {
  const expected = elementCount(dims);
  if (data.length !== expected) {
    throw new RuntimeError(`${label}: data has ${data.length} elements but dims [${dims.join(', ')}] need ${expected}`);
  }
  return { dtype, dims: [...dims], data };
}

export const f32 = (
  dims: readonly number[],
  data: Float32Array | readonly number[],
  label?: string,
): HostTensor<'float32'> =>
  hostTensor('float32', dims, data instanceof Float32Array ? data : Float32Array.from(data), label);

export const f64 = (
  dims: readonly number[],
  data: Float64Array | readonly number[],
  label?: string,
): HostTensor<'float64'> =>
  hostTensor('float64', dims, data instanceof Float64Array ? data : Float64Array.from(data), label);

export const i64 = (
  dims: readonly number[],
  data: readonly number[] | BigInt64Array,
  label?: string,
): HostTensor<'int64'> =>
  hostTensor('int64', dims, data instanceof BigInt64Array ? data : BigInt64Array.from(data, (v) => BigInt(v)), label);

/** Values as plain numbers, whatever the dtype (int64 converted; meant for small tensors and tests). */
export function toNumbers(t: HostTensor): number[] {
  return Array.from(t.data as ArrayLike<number | bigint>, (v) => Number(v));
}
