/**
 * Builds safetensors bytes by hand (any dtype, any header, even broken ones) so reader tests do not
 * depend on the writer they are checking.
 */
export function rawSafetensors(header: unknown, data: Uint8Array = new Uint8Array(), headerLength?: number): Buffer {
  const json = Buffer.from(typeof header === 'string' ? header : JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(8);
  prefix.writeBigUInt64LE(BigInt(headerLength ?? json.length));
  return Buffer.concat([prefix, json, data]);
}

export function float16Bytes(words: number[]): Uint8Array {
  return new Uint8Array(Uint16Array.from(words).buffer);
}

export function float64Bytes(values: number[]): Uint8Array {
  return new Uint8Array(Float64Array.from(values).buffer);
}
