/**
 * Element types the engine knows, named as onnxruntime names them so a host tensor's dtype is
 * also its `ort.Tensor` type. Codes are ONNX `TensorProto.DataType` values.
 */
export type DType = 'float32' | 'float64' | 'float16' | 'int32' | 'int64' | 'bool';

export const onnxTypeCode: Readonly<Record<DType, number>> = {
  float32: 1,
  int32: 6,
  int64: 7,
  bool: 9,
  float16: 10,
  float64: 11,
};

export const FLOAT_TYPES: readonly DType[] = ['float32', 'float64', 'float16'];
export const INT_TYPES: readonly DType[] = ['int32', 'int64'];
export const NUMERIC_TYPES: readonly DType[] = [...FLOAT_TYPES, ...INT_TYPES];
export const ALL_TYPES: readonly DType[] = [...NUMERIC_TYPES, 'bool'];

export function isFloat(dtype: DType): boolean {
  return FLOAT_TYPES.includes(dtype);
}

/** The typed array that holds each dtype on the host (float16 travels as raw 16-bit words). */
export interface TypedArrayOf {
  float32: Float32Array;
  float64: Float64Array;
  float16: Uint16Array;
  int32: Int32Array;
  int64: BigInt64Array;
  bool: Uint8Array;
}

export type TypedArray = TypedArrayOf[DType];

/** Host values in the natural JS type: numbers, or bigint-free numbers for int64. */
export function typedArrayFrom(dtype: DType, values: ArrayLike<number>): TypedArray {
  switch (dtype) {
    case 'float32':
      return Float32Array.from(values);
    case 'float64':
      return Float64Array.from(values);
    case 'int32':
      return Int32Array.from(values);
    case 'int64':
      return BigInt64Array.from(Array.from(values, (v) => BigInt(Math.trunc(v))));
    case 'bool':
      return Uint8Array.from(values, (v) => (v ? 1 : 0));
    case 'float16':
      throw new TypeError('float16 constants are not built from numbers; pass raw half words');
  }
}
