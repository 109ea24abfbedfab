import type { FileHandle } from 'node:fs/promises';
import { ModelFileError } from './errors.js';
import { openRegularFile } from './files.js';
import { DECODABLE_DTYPES, decodeFloats, isDecodable, type DecodableDtype } from './float-decode.js';
import {
  MAX_IO_BYTES,
  parseHeader,
  readHeaderLength,
  type SafetensorsEntry,
  type SafetensorsHeader,
} from './safetensors-header.js';
import { elementCount, type Tensor, type TensorMap } from './tensor.js';

export { serializeSafetensors, writeSafetensors } from './safetensors-write.js';

export interface SafetensorsContents {
  tensors: TensorMap;
  metadata: Record<string, string>;
}

export interface ReadOptions {
  /** Read only these tensors (others are skipped without touching their bytes). */
  only?: ReadonlySet<string>;
  /** Checks the parsed header (names, dtypes, shapes) before any tensor's bytes are read; throw to refuse. */
  checkHeader?: (header: SafetensorsHeader) => void;
}

/**
 * Reads a safetensors file tensor by tensor: each tensor's bytes are read straight into its
 * Float32Array (F32) or into one scratch buffer that is widened (F16/BF16/F64), so peak memory is
 * the result plus one tensor — never the whole file twice.
 */
export async function readSafetensors(file: string, options: ReadOptions = {}): Promise<SafetensorsContents> {
  return withFile(file, async (handle, size) => {
    const header = await readHeaderFrom(file, handle, size);
    options.checkHeader?.(header);
    const tensors: TensorMap = new Map();
    for (const entry of header.entries) {
      if (options.only && !options.only.has(entry.name)) continue;
      tensors.set(entry.name, await readTensor(handle, header.dataStart, floatEntry(file, entry)));
    }
    return { tensors, metadata: header.metadata };
  });
}

/** Only the header: names, dtypes, shapes, metadata (for `inspect` and shard routing). */
export async function readSafetensorsHeader(file: string): Promise<SafetensorsHeader> {
  return withFile(file, (handle, size) => readHeaderFrom(file, handle, size));
}

/** Parses safetensors bytes already in memory; `file` only labels errors. */
export function parseSafetensors(bytes: Uint8Array, file = '<memory>'): SafetensorsContents {
  const headerLength = readHeaderLength(file, bytes.subarray(0, 8), bytes.byteLength);
  const header = parseHeader(file, bytes.subarray(8, 8 + headerLength), bytes.byteLength - 8 - headerLength);
  const tensors: TensorMap = new Map();
  for (const entry of header.entries.map((e) => floatEntry(file, e))) {
    const data = new Float32Array(elementCount(entry.shape));
    decodeFloats(entry.dtype, bytes.subarray(header.dataStart + entry.begin, header.dataStart + entry.end), data);
    tensors.set(entry.name, { shape: [...entry.shape], data });
  }
  return { tensors, metadata: header.metadata };
}

// Integer and fp8 tensors have valid headers but no float32 reading here; only reading them fails.
function floatEntry(file: string, entry: SafetensorsEntry): SafetensorsEntry & { dtype: DecodableDtype } {
  if (isDecodable(entry.dtype)) return entry as SafetensorsEntry & { dtype: DecodableDtype };
  throw new ModelFileError(
    file,
    `tensor ${entry.name}: dtype ${entry.dtype} cannot be read as float (supported: ${DECODABLE_DTYPES.join(', ')})`,
    entry.name,
  );
}

async function withFile<T>(file: string, use: (handle: FileHandle, size: number) => Promise<T>): Promise<T> {
  const handle = await openRegularFile(file);
  try {
    return await use(handle, (await handle.stat()).size);
  } finally {
    await handle.close();
  }
}

async function readHeaderFrom(file: string, handle: FileHandle, size: number): Promise<SafetensorsHeader> {
  const prefix = new Uint8Array(Math.min(8, size));
  await readExactly(handle, prefix, 0);
  const headerLength = readHeaderLength(file, prefix, size);
  const headerBytes = new Uint8Array(headerLength);
  await readExactly(handle, headerBytes, 8);
  return parseHeader(file, headerBytes, size - 8 - headerLength);
}

async function readTensor(
  handle: FileHandle,
  dataStart: number,
  entry: SafetensorsEntry & { dtype: DecodableDtype },
): Promise<Tensor> {
  const data = new Float32Array(elementCount(entry.shape));
  const position = dataStart + entry.begin;
  if (entry.dtype === 'F32') {
    await readExactly(handle, new Uint8Array(data.buffer), position);
  } else {
    const raw = new Uint8Array(entry.end - entry.begin);
    await readExactly(handle, raw, position);
    decodeFloats(entry.dtype, raw, data);
  }
  return { shape: [...entry.shape], data };
}

async function readExactly(handle: FileHandle, target: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < target.byteLength) {
    const length = Math.min(MAX_IO_BYTES, target.byteLength - done);
    const { bytesRead } = await handle.read(target, done, length, position + done);
    if (bytesRead === 0) throw new Error(`unexpected end of file at byte ${position + done}`);
    done += bytesRead;
  }
}
