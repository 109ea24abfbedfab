/**
 * A minimal MP4 (ISO BMFF) writer for one H.264 video track: ftyp, moov (sample tables) before
 * mdat so a browser can start from the head, every sample a sync sample, constant frame rate.
 */
export interface Mp4Track {
  width: number;
  height: number;
  /** Ticks per second of the sample timestamps. */
  timescale: number;
  sampleDuration: number;
  sps: Uint8Array;
  pps: Uint8Array;
  profile: number;
  level: number;
  /** One access unit per sample: NAL units without start codes. */
  samples: Uint8Array[][];
}

const enc = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function box(type: string, ...parts: Uint8Array[]): Uint8Array {
  const body = concat(parts);
  const head = new Uint8Array(8);
  new DataView(head.buffer).setUint32(0, 8 + body.length);
  head.set(enc(type), 4);
  return concat([head, body]);
}

const fullBox = (type: string, flags: number, ...parts: Uint8Array[]) => box(type, u32(flags), ...parts);

function u32(...values: number[]): Uint8Array {
  const out = new Uint8Array(values.length * 4);
  values.forEach((v, i) => new DataView(out.buffer).setUint32(i * 4, v >>> 0));
  return out;
}

function u16(...values: number[]): Uint8Array {
  const out = new Uint8Array(values.length * 2);
  values.forEach((v, i) => new DataView(out.buffer).setUint16(i * 2, v));
  return out;
}

/** Each sample as length-prefixed NAL units (avcC lengthSizeMinusOne = 3). */
function sampleBytes(nals: Uint8Array[]): Uint8Array {
  return concat(nals.flatMap((nal) => [u32(nal.length), nal]));
}

export function writeMp4(track: Mp4Track): Uint8Array {
  const samples = track.samples.map(sampleBytes);
  const duration = samples.length * track.sampleDuration;
  const identity = u32(0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000);
  const moov = (dataOffset: number) => {
    const avcC = box(
      'avcC',
      Uint8Array.of(1, track.profile, 0xc0, track.level, 0xff, 0xe1),
      u16(track.sps.length),
      track.sps,
      Uint8Array.of(1),
      u16(track.pps.length),
      track.pps,
    );
    const avc1 = box(
      'avc1',
      new Uint8Array(6),
      u16(1),
      new Uint8Array(16),
      u16(track.width, track.height),
      u32(0x480000, 0x480000, 0),
      u16(1),
      new Uint8Array(32),
      u16(0x18, 0xffff),
      avcC,
    );
    const stbl = box(
      'stbl',
      fullBox('stsd', 0, u32(1), avc1),
      fullBox('stts', 0, u32(1, samples.length, track.sampleDuration)),
      fullBox('stsc', 0, u32(1, 1, samples.length, 1)),
      fullBox('stsz', 0, u32(0, samples.length, ...samples.map((s) => s.length))),
      fullBox('stco', 0, u32(1, dataOffset)),
    );
    const minf = box(
      'minf',
      fullBox('vmhd', 1, u16(0, 0, 0, 0)),
      box('dinf', fullBox('dref', 0, u32(1), fullBox('url ', 1))),
      stbl,
    );
    const mdia = box(
      'mdia',
      fullBox('mdhd', 0, u32(0, 0, track.timescale, duration), u16(0x55c4, 0)),
      fullBox('hdlr', 0, u32(0), enc('vide'), u32(0, 0, 0), enc('Gauntlet clip\0')),
      minf,
    );
    const tkhd = fullBox(
      'tkhd',
      3,
      u32(0, 0, 1, 0, duration, 0, 0),
      u16(0, 0, 0, 0),
      identity,
      u32(track.width << 16, track.height << 16),
    );
    const mvhd = fullBox(
      'mvhd',
      0,
      u32(0, 0, track.timescale, duration, 0x10000),
      u16(0x100, 0),
      u32(0, 0),
      identity,
      u32(0, 0, 0, 0, 0, 0, 2),
    );
    return box('moov', mvhd, box('trak', tkhd, mdia));
  };
  const ftyp = box('ftyp', enc('isom'), u32(0x200), enc('isomiso2avc1mp41'));
  // The chunk offset points past ftyp, moov and the mdat header; moov's size does not depend on it.
  const offset = ftyp.length + moov(0).length + 8;
  return concat([ftyp, moov(offset), box('mdat', ...samples)]);
}
