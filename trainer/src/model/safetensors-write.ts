/** Float32 safetensors writing (checkpoints, adapters, merged exports); reading lives in safetensors.ts. */
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { DTYPE_BYTES } from './float-decode.js';
import { MAX_IO_BYTES } from './safetensors-header.js';
import { elementCount, formatShape, type Tensor, type TensorMap } from './tensor.js';

/** The header for float32 tensors in name order, padded with spaces to 8 bytes as the format recommends. */
function buildHeader(tensors: TensorMap, metadata: Record<string, string>): { header: Buffer; order: string[] } {
  const order = [...tensors.keys()].sort();
  const json: Record<string, unknown> = Object.keys(metadata).length ? { __metadata__: metadata } : {};
  let offset = 0;
  for (const name of order) {
    const tensor = tensors.get(name)!;
    if (tensor.data.length !== elementCount(tensor.shape)) {
      throw new Error(
        `cannot write tensor ${name}: shape ${formatShape(tensor.shape)} needs ${elementCount(tensor.shape)} values, got ${tensor.data.length}`,
      );
    }
    const bytes = tensor.data.length * DTYPE_BYTES.F32;
    json[name] = { dtype: 'F32', shape: tensor.shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  const body = Buffer.from(JSON.stringify(json), 'utf8');
  const padding = (8 - (body.length % 8)) % 8;
  const header = Buffer.alloc(8 + body.length + padding, 0x20);
  header.writeBigUInt64LE(BigInt(body.length + padding), 0);
  body.copy(header, 8);
  return { header, order };
}

async function writeAll(handle: FileHandle, bytes: Uint8Array, position: number): Promise<number> {
  let done = 0;
  while (done < bytes.byteLength) {
    const length = Math.min(MAX_IO_BYTES, bytes.byteLength - done);
    const { bytesWritten } = await handle.write(bytes, done, length, position + done);
    done += bytesWritten;
  }
  return position + done;
}

function tensorBytes(tensor: Tensor): Uint8Array {
  return new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength);
}

/** Whole file in memory; fine for adapters and tests. */
export function serializeSafetensors(tensors: TensorMap, metadata: Record<string, string> = {}): Buffer {
  const { header, order } = buildHeader(tensors, metadata);
  return Buffer.concat([header, ...order.map((name) => tensorBytes(tensors.get(name)!))]);
}

/**
 * Writes float32 safetensors tensor by tensor through a temporary file renamed into place, so a
 * crash never leaves a half-written file under the real name for a server to load.
 */
export async function writeSafetensors(
  file: string,
  tensors: TensorMap,
  metadata: Record<string, string> = {},
): Promise<void> {
  const { header, order } = buildHeader(tensors, metadata);
  const temporary = `${file}.tmp-${process.pid}`;
  const handle = await open(temporary, 'w');
  try {
    let position = await writeAll(handle, header, 0);
    for (const name of order) position = await writeAll(handle, tensorBytes(tensors.get(name)!), position);
    await handle.close();
    await rename(temporary, file);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
}
