/**
 * Little-endian float decoders from raw safetensors bytes into float32. They read byte by byte
 * so the source needs no alignment (tensor offsets inside a file are arbitrary).
 */
export type DecodableDtype = 'F32' | 'F16' | 'BF16' | 'F64';

/** Every safetensors dtype, so headers of integer or fp8 tensors still parse (inspect lists them). */
export const DTYPE_BYTES = {
  BOOL: 1,
  U8: 1,
  I8: 1,
  F8_E5M2: 1,
  F8_E4M3: 1,
  I16: 2,
  U16: 2,
  F16: 2,
  BF16: 2,
  I32: 4,
  U32: 4,
  F32: 4,
  I64: 8,
  U64: 8,
  F64: 8,
} as const;
export type SafetensorsDtype = keyof typeof DTYPE_BYTES;

export const DECODABLE_DTYPES: readonly DecodableDtype[] = ['F32', 'F16', 'BF16', 'F64'];

export function isDecodable(dtype: SafetensorsDtype): dtype is DecodableDtype {
  return (DECODABLE_DTYPES as readonly string[]).includes(dtype);
}

export function decodeFloats(dtype: DecodableDtype, bytes: Uint8Array, out: Float32Array): void {
  if (dtype === 'F32') new Uint8Array(out.buffer, out.byteOffset, out.byteLength).set(bytes);
  else if (dtype === 'F16') decodeFloat16(bytes, out);
  else if (dtype === 'BF16') decodeBFloat16(bytes, out);
  else decodeFloat64(bytes, out);
}

// bfloat16 is the top half of a float32, so widening is a shift.
function decodeBFloat16(bytes: Uint8Array, out: Float32Array): void {
  const bits = new Uint32Array(out.buffer, out.byteOffset, out.length);
  for (let i = 0; i < out.length; i++) bits[i] = ((bytes[2 * i + 1]! << 8) | bytes[2 * i]!) << 16;
}

function decodeFloat16(bytes: Uint8Array, out: Float32Array): void {
  const table = float16Table();
  for (let i = 0; i < out.length; i++) out[i] = table[(bytes[2 * i + 1]! << 8) | bytes[2 * i]!]!;
}

function decodeFloat64(bytes: Uint8Array, out: Float32Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(8 * i, true);
}

let float16Values: Float32Array | undefined;

// All 65,536 half-precision values, built once (256 KiB): a lookup beats bit-twiddling per element.
function float16Table(): Float32Array {
  if (float16Values) return float16Values;
  float16Values = new Float32Array(65_536);
  for (let h = 0; h < 65_536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exponent = (h >> 10) & 0x1f;
    const mantissa = h & 0x3ff;
    if (exponent === 0) float16Values[h] = sign * mantissa * 2 ** -24;
    else if (exponent === 31) float16Values[h] = mantissa === 0 ? sign * Infinity : NaN;
    else float16Values[h] = sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
  }
  return float16Values;
}
