import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { float16Bytes, float64Bytes, rawSafetensors } from '../../test/support/raw-safetensors.js';
import { useTempDirs } from '../../test/support/temp-dir.js';
import {
  parseSafetensors,
  readSafetensors,
  readSafetensorsHeader,
  serializeSafetensors,
  writeSafetensors,
} from './safetensors.js';
import type { TensorMap } from './tensor.js';

const tempDir = useTempDirs();

const sample = (): TensorMap =>
  new Map([
    ['b.weight', { shape: [2, 3], data: Float32Array.from([1, -2, 3.5, 1e-8, -0, 65504]) }],
    ['a.bias', { shape: [3], data: Float32Array.from([0.1, 0.2, 0.3]) }],
    ['scalar', { shape: [], data: Float32Array.from([7]) }],
    ['empty', { shape: [0, 4], data: new Float32Array(0) }],
  ]);

describe('safetensors round trip', () => {
  it('writes float32 files that read back identical, with metadata and an 8-byte aligned header', async () => {
    const file = join(await tempDir(), 'model.safetensors');
    await writeSafetensors(file, sample(), { format: 'pt' });
    const { tensors, metadata } = await readSafetensors(file);
    expect(metadata).toEqual({ format: 'pt' });
    expect(tensors).toEqual(sample());
    const bytes = await readFile(file);
    expect(Number(bytes.readBigUInt64LE(0)) % 8).toBe(0);
    expect(parseSafetensors(bytes, file).tensors).toEqual(sample());
    expect(Buffer.compare(bytes, serializeSafetensors(sample(), { format: 'pt' }))).toBe(0);
  });

  it('lists integer tensors in headers and skips them when not requested', async () => {
    const bytes = rawSafetensors(
      {
        ids: { dtype: 'I64', shape: [1], data_offsets: [0, 8] },
        w: { dtype: 'F64', shape: [1], data_offsets: [8, 16] },
      },
      new Uint8Array(16),
    );
    const file = join(await tempDir(), 'mixed.safetensors');
    await writeFile(file, bytes);
    expect((await readSafetensorsHeader(file)).entries.map((e) => e.dtype)).toEqual(['I64', 'F64']);
    expect([...(await readSafetensors(file, { only: new Set(['w']) })).tensors.keys()]).toEqual(['w']);
  });

  it('reads only the requested tensors, and headers alone', async () => {
    const file = join(await tempDir(), 'model.safetensors');
    await writeSafetensors(file, sample());
    expect([...(await readSafetensors(file, { only: new Set(['a.bias']) })).tensors.keys()]).toEqual(['a.bias']);
    const header = await readSafetensorsHeader(file);
    expect(header.entries.map((e) => [e.name, e.dtype, e.shape])).toEqual([
      ['a.bias', 'F32', [3]],
      ['b.weight', 'F32', [2, 3]],
      ['empty', 'F32', [0, 4]],
      ['scalar', 'F32', []],
    ]);
  });

  it('refuses to write a tensor whose data does not fit its shape', async () => {
    const bad: TensorMap = new Map([['w', { shape: [2, 2], data: new Float32Array(3) }]]);
    await expect(writeSafetensors(join(await tempDir(), 'x.safetensors'), bad)).rejects.toThrow(
      'cannot write tensor w: shape [2, 2] needs 4 values, got 3',
    );
  });
});

describe('safetensors decoding', () => {
  it('widens float16, including subnormals, infinities and NaN', () => {
    // 1, -2, 65504 (max), 2^-24 (smallest subnormal), +inf, NaN, -0
    const words = [0x3c00, 0xc000, 0x7bff, 0x0001, 0x7c00, 0x7e00, 0x8000];
    const bytes = rawSafetensors({ h: { dtype: 'F16', shape: [7], data_offsets: [0, 14] } }, float16Bytes(words));
    const values = [...parseSafetensors(bytes).tensors.get('h')!.data];
    expect(values.slice(0, 5)).toEqual([1, -2, 65504, 2 ** -24, Infinity]);
    expect(values[5]).toBeNaN();
    expect(Object.is(values[6], -0)).toBe(true);
  });

  it('widens bfloat16 exactly (the top half of float32)', () => {
    // 1, -2.5, 3.140625 (π rounded to bf16), 1e38-ish
    const words = [0x3f80, 0xc020, 0x4049, 0x7e96];
    const bytes = rawSafetensors({ b: { dtype: 'BF16', shape: [2, 2], data_offsets: [0, 8] } }, float16Bytes(words));
    const tensor = parseSafetensors(bytes).tensors.get('b')!;
    expect(tensor.shape).toEqual([2, 2]);
    expect([...tensor.data]).toEqual([1, -2.5, 3.140625, new Float32Array(new Uint32Array([0x7e960000]).buffer)[0]]);
  });

  it('narrows float64 (used by tests) and decodes unaligned offsets from files', async () => {
    // A 1-byte header padding pushes the data to an odd offset.
    const data = new Uint8Array([0xff, ...float64Bytes([0.5, -1.25])]);
    const bytes = rawSafetensors({ d: { dtype: 'F64', shape: [2], data_offsets: [1, 17] } }, data);
    const file = join(await tempDir(), 'd.safetensors');
    await writeFile(file, bytes);
    expect([...(await readSafetensors(file)).tensors.get('d')!.data]).toEqual([0.5, -1.25]);
    expect([...parseSafetensors(bytes).tensors.get('d')!.data]).toEqual([0.5, -1.25]);
  });
});

describe('corrupt safetensors files fail naming the file and tensor', () => {
  const entry = (dtype: string, shape: unknown, offsets: unknown) => ({ w: { dtype, shape, data_offsets: offsets } });
  const cases: [string, Buffer, string][] = [
    ['too short', Buffer.from([1, 2, 3]), 'is 3 bytes, too short for the 8-byte safetensors header length'],
    ['header length past the end', rawSafetensors('{}', new Uint8Array(), 4096), 'bad safetensors header length 4096'],
    ['header length absurd', rawSafetensors('{}', new Uint8Array(), 2 ** 40), 'bad safetensors header length'],
    ['header not JSON', rawSafetensors('{"w": ', new Uint8Array()), 'safetensors header is not valid JSON'],
    ['header not an object', rawSafetensors('[1]'), 'safetensors header must be a JSON object'],
    ['bad metadata', rawSafetensors({ __metadata__: { n: 1 } }), '__metadata__ must map strings to strings'],
    [
      'unknown dtype',
      rawSafetensors(entry('F12', [4], [0, 4]), new Uint8Array(4)),
      'tensor w: dtype "F12" is not a safetensors dtype (known: BOOL, U8',
    ],
    [
      'integer dtype read as float',
      rawSafetensors(entry('I64', [2], [0, 16]), new Uint8Array(16)),
      'tensor w: dtype I64 cannot be read as float (supported: F32, F16, BF16, F64)',
    ],
    [
      'bad shape',
      rawSafetensors(entry('F32', [2, -1], [0, 4]), new Uint8Array(4)),
      'tensor w: shape must be a list of non-negative integers (got [2,-1])',
    ],
    [
      'bad offsets',
      rawSafetensors(entry('F32', [1], [0]), new Uint8Array(4)),
      'tensor w: data_offsets must be [begin, end]',
    ],
    [
      'offsets out of range',
      rawSafetensors(entry('F32', [4], [0, 16]), new Uint8Array(8)),
      'tensor w: data_offsets [0, 16] out of range (data section is 8 bytes)',
    ],
    [
      'offsets reversed',
      rawSafetensors(entry('F32', [1], [8, 4]), new Uint8Array(8)),
      'tensor w: data_offsets [8, 4] out of range',
    ],
    [
      'shape/bytes mismatch',
      rawSafetensors(entry('F32', [3], [0, 8]), new Uint8Array(8)),
      'tensor w: shape [3] of F32 needs 12 bytes but data_offsets span 8',
    ],
    [
      'overlap',
      rawSafetensors(
        {
          a: { dtype: 'F32', shape: [2], data_offsets: [0, 8] },
          b: { dtype: 'F32', shape: [2], data_offsets: [4, 12] },
        },
        new Uint8Array(12),
      ),
      'tensor b: data overlaps tensor a',
    ],
  ];

  it.each(cases)('%s', async (_label, bytes, message) => {
    const file = join(await tempDir(), 'broken.safetensors');
    await writeFile(file, bytes);
    await expect(readSafetensors(file)).rejects.toThrow(`${file}: ${message}`);
    expect(() => parseSafetensors(bytes, file)).toThrow(`${file}: ${message}`);
  });

  it('names a missing file', async () => {
    const file = join(await tempDir(), 'absent.safetensors');
    await expect(readSafetensors(file)).rejects.toThrow(`${file}: file not found`);
  });
});
