import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AdamWState } from '../../train/adamw.js';
import { parseSafetensors } from '../../model/safetensors.js';
import type { TensorMap } from '../../model/tensor.js';
import { CheckpointError } from './errors.js';
import type { StateFile } from './state.js';

const MOMENTS = { m: 'exp_avg', v: 'exp_avg_sq' } as const;

/** AdamW's moments as tensors named as PyTorch's state dict names them (`exp_avg.<param>`, `exp_avg_sq.<param>`). */
export function momentTensors(state: AdamWState): TensorMap {
  const tensors: TensorMap = new Map();
  for (const key of ['m', 'v'] as const)
    for (const [name, a] of state[key]) tensors.set(`${MOMENTS[key]}.${name}`, { shape: [a.length], data: a });
  return tensors;
}

export function momentsFrom(file: string, tensors: TensorMap, step: number): AdamWState {
  const state: AdamWState = { step, m: new Map(), v: new Map() };
  for (const [key, tensor] of tensors) {
    const dot = key.indexOf('.');
    const kind = key.slice(0, dot);
    const target = kind === MOMENTS.m ? state.m : kind === MOMENTS.v ? state.v : null;
    if (!target || dot < 0)
      throw new CheckpointError(file, `tensor ${key} is not an AdamW moment (exp_avg.* or exp_avg_sq.*)`);
    target.set(key.slice(dot + 1), tensor.data);
  }
  const unpaired =
    [...state.m.keys()].find((name) => !state.v.has(name)) ?? [...state.v.keys()].find((n) => !state.m.has(n));
  if (unpaired !== undefined)
    throw new CheckpointError(file, `parameter ${unpaired} has only one of its two AdamW moments`);
  return state;
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The digest state.json records of itself: sha256 of its fields but `sha256`, as JSON with keys
 * sorted at every level, so it does not depend on how the file is laid out, only on its values.
 */
export function stateDigest(state: Omit<StateFile, 'sha256'> & { sha256?: string }): string {
  const { sha256: _own, ...fields } = state;
  return sha256(canonicalJson(fields));
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      // As JSON.stringify writes them: a key holding undefined is left out.
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/** Reads a file state.json lists and checks its size and digest: a partial or altered file is named, not half-loaded. */
export async function readListed(dir: string, state: StateFile, name: string): Promise<Buffer> {
  const file = join(dir, name);
  const want = state.files[name];
  if (!want) throw new CheckpointError(join(dir, 'state.json'), `lists no ${name}`);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new CheckpointError(
      file,
      `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  if (bytes.byteLength !== want.bytes)
    throw new CheckpointError(file, `is ${bytes.byteLength} bytes, state.json recorded ${want.bytes} (partial write?)`);
  if (sha256(bytes) !== want.sha256)
    throw new CheckpointError(file, 'its sha256 differs from the one state.json recorded (corrupt)');
  return bytes;
}

export function parseMoments(file: string, bytes: Uint8Array, step: number): AdamWState {
  try {
    return momentsFrom(file, parseSafetensors(bytes, file).tensors, step);
  } catch (error) {
    if (error instanceof CheckpointError) throw error;
    throw new CheckpointError(file, (error as Error).message);
  }
}
