import { endianness } from 'node:os';
import { ModelFileError } from './errors.js';
import { describeValue, isPlainObject } from './json-reader.js';
import { DTYPE_BYTES, type SafetensorsDtype } from './float-decode.js';
import { elementCount, formatShape } from './tensor.js';

/** One tensor's entry in a safetensors header; offsets are relative to the data section. */
export interface SafetensorsEntry {
  name: string;
  dtype: SafetensorsDtype;
  shape: number[];
  begin: number;
  end: number;
}

export interface SafetensorsHeader {
  entries: SafetensorsEntry[];
  metadata: Record<string, string>;
  /** Byte offset of the data section in the file (8 + header length). */
  dataStart: number;
}

// Raw float bytes are copied straight between files and typed arrays: right only on little-endian hosts.
if (endianness() !== 'LE') throw new Error('safetensors I/O assumes a little-endian host');

// One read or write call moves at most 2 GiB, and may move fewer bytes than asked.
export const MAX_IO_BYTES = 1 << 30;

// The format's own limit; a larger length means the first 8 bytes are not a safetensors header.
export const MAX_HEADER_BYTES = 100 * 1024 * 1024;

export function readHeaderLength(file: string, prefix: Uint8Array, fileSize: number): number {
  if (fileSize < 8)
    throw new ModelFileError(file, `is ${fileSize} bytes, too short for the 8-byte safetensors header length`);
  const length = Number(Buffer.from(prefix.buffer, prefix.byteOffset, 8).readBigUInt64LE(0));
  if (length < 2 || length > MAX_HEADER_BYTES || length > fileSize - 8) {
    throw new ModelFileError(
      file,
      `bad safetensors header length ${length} (file is ${fileSize} bytes; not a safetensors file or truncated)`,
    );
  }
  return length;
}

/** Parses and checks the JSON header: dtypes, shapes, offsets inside the data section, no overlaps. */
export function parseHeader(file: string, headerBytes: Uint8Array, dataSize: number): SafetensorsHeader {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(headerBytes.buffer, headerBytes.byteOffset, headerBytes.byteLength).toString('utf8'));
  } catch (error) {
    throw new ModelFileError(file, `safetensors header is not valid JSON (${(error as Error).message})`);
  }
  if (!isPlainObject(json)) throw new ModelFileError(file, 'safetensors header must be a JSON object');
  const metadata = readMetadata(file, json.__metadata__);
  const entries = Object.entries(json)
    .filter(([name]) => name !== '__metadata__')
    .map(([name, value]) => readEntry(file, name, value, dataSize));
  checkNoOverlap(file, entries);
  return { entries, metadata, dataStart: 8 + headerBytes.byteLength };
}

function readMetadata(file: string, value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value) || !Object.values(value).every((v) => typeof v === 'string')) {
    throw new ModelFileError(
      file,
      `__metadata__ must map strings to strings (got ${describeValue(value)})`,
      '__metadata__',
    );
  }
  return value as Record<string, string>;
}

function readEntry(file: string, name: string, value: unknown, dataSize: number): SafetensorsEntry {
  const fail = (detail: string) => new ModelFileError(file, `tensor ${name}: ${detail}`, name);
  if (!isPlainObject(value)) throw fail(`header entry must be an object (got ${describeValue(value)})`);
  const { dtype, shape, data_offsets: offsets } = value;
  if (typeof dtype !== 'string' || !Object.hasOwn(DTYPE_BYTES, dtype)) {
    throw fail(
      `dtype ${describeValue(dtype)} is not a safetensors dtype (known: ${Object.keys(DTYPE_BYTES).join(', ')})`,
    );
  }
  if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= 0)) {
    throw fail(`shape must be a list of non-negative integers (got ${describeValue(shape)})`);
  }
  if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((o) => Number.isInteger(o) && o >= 0)) {
    throw fail(`data_offsets must be [begin, end] (got ${describeValue(offsets)})`);
  }
  const [begin, end] = offsets as [number, number];
  if (begin > end || end > dataSize) {
    throw fail(`data_offsets [${begin}, ${end}] out of range (data section is ${dataSize} bytes)`);
  }
  const expectedBytes = elementCount(shape) * DTYPE_BYTES[dtype as SafetensorsDtype];
  if (end - begin !== expectedBytes) {
    throw fail(
      `shape ${formatShape(shape)} of ${dtype} needs ${expectedBytes} bytes but data_offsets span ${end - begin}`,
    );
  }
  return { name, dtype: dtype as SafetensorsDtype, shape: shape as number[], begin, end };
}

function checkNoOverlap(file: string, entries: SafetensorsEntry[]): void {
  const sorted = [...entries].filter((e) => e.end > e.begin).sort((a, b) => a.begin - b.begin);
  for (let i = 1; i < sorted.length; i++) {
    const previous = sorted[i - 1]!;
    const current = sorted[i]!;
    if (current.begin < previous.end) {
      throw new ModelFileError(file, `tensor ${current.name}: data overlaps tensor ${previous.name}`, current.name);
    }
  }
}
