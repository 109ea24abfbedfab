import { describe, expect, it } from 'vitest';
import { BitWriter } from './bit-writer.js';
import { clockVideo } from './clock-video.js';
import { nalUnit } from './h264.js';

describe('BitWriter', () => {
  it('writes Exp-Golomb codes as the H.264 spec tabulates them', () => {
    // ue: 0 → 1, 1 → 010, 2 → 011, 3 → 00100; se: 1 → 010, -1 → 011. Then the stop bit and zero padding.
    const bytes = new BitWriter().ue(0).ue(1).ue(2).ue(3).se(1).se(-1).finish();
    expect([...bytes].map((b) => b.toString(2).padStart(8, '0')).join('')).toBe(
      '1' + '010' + '011' + '00100' + '010' + '011' + '1' + '00000',
    );
  });
});

describe('nalUnit', () => {
  it('inserts emulation-prevention bytes after two zeros', () => {
    expect([...nalUnit(5, Uint8Array.of(0, 0, 1, 0, 0, 0, 7))]).toEqual([0x65, 0, 0, 3, 1, 0, 0, 3, 0, 7]);
  });
});

describe('clockVideo', () => {
  it('is an MP4 with ftyp, moov and mdat, whose chunk offset points at the first sample', () => {
    const file = clockVideo();
    const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
    const boxes: [string, number, number][] = [];
    for (let at = 0; at < file.length; at += view.getUint32(at))
      boxes.push([String.fromCharCode(...file.subarray(at + 4, at + 8)), at, view.getUint32(at)]);
    expect(boxes.map(([type]) => type)).toEqual(['ftyp', 'moov', 'mdat']);
    const stco = Buffer.from(file).indexOf('stco');
    const offset = view.getUint32(stco + 12);
    expect(offset).toBe(boxes[2]![1] + 8);
    // First sample: a 4-byte length, then an IDR NAL header (nal_ref_idc 3, type 5).
    expect(file[offset + 4]).toBe(0x65);
    expect(file.length).toBeLessThan(300_000);
  });
});
