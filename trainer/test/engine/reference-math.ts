/** Plain-loop references for the composites, written for clarity, not speed. */

export function softmaxRows(x: ArrayLike<number>, width: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < x.length / width; r++) {
    const row = Array.from({ length: width }, (_, i) => x[r * width + i]!);
    const m = Math.max(...row);
    const e = row.map((v) => Math.exp(v - m));
    const s = e.reduce((a, b) => a + b, 0);
    out.push(...e.map((v) => v / s));
  }
  return out;
}

export function logSoftmaxRows(x: ArrayLike<number>, width: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < x.length / width; r++) {
    const row = Array.from({ length: width }, (_, i) => x[r * width + i]!);
    const m = Math.max(...row);
    const lse = m + Math.log(row.reduce((a, v) => a + Math.exp(v - m), 0));
    out.push(...row.map((v) => v - lse));
  }
  return out;
}

export function rmsNormRows(x: ArrayLike<number>, w: ArrayLike<number>, eps: number): number[] {
  const d = w.length;
  const out: number[] = [];
  for (let r = 0; r < x.length / d; r++) {
    let ms = 0;
    for (let i = 0; i < d; i++) ms += x[r * d + i]! ** 2 / d;
    for (let i = 0; i < d; i++) out.push((x[r * d + i]! / Math.sqrt(ms + eps)) * w[i]!);
  }
  return out;
}

export function rope(
  x: ArrayLike<number>,
  [b, h, t, d]: [number, number, number, number],
  positions: number[],
  inv: number[],
): number[] {
  const out = Array.from(x);
  const half = d / 2;
  for (let bi = 0; bi < b; bi++)
    for (let hi = 0; hi < h; hi++)
      for (let ti = 0; ti < t; ti++) {
        const base = ((bi * h + hi) * t + ti) * d;
        for (let i = 0; i < half; i++) {
          const angle = positions[bi * t! + ti]! * inv[i]!;
          const [x1, x2] = [x[base + i]!, x[base + i + half]!];
          out[base + i] = x1 * Math.cos(angle) - x2 * Math.sin(angle);
          out[base + i + half] = x2 * Math.cos(angle) + x1 * Math.sin(angle);
        }
      }
  return out;
}

/** q [b,h,t,d], k/v [b,kv,t,d]; query head j uses kv head floor(j / (h/kv)). */
export function attention(
  q: ArrayLike<number>,
  k: ArrayLike<number>,
  v: ArrayLike<number>,
  mask: number[],
  [b, h, kv, t, d]: number[],
): number[] {
  const out: number[] = [];
  const groups = h! / kv!;
  for (let bi = 0; bi < b!; bi++)
    for (let hi = 0; hi < h!; hi++) {
      const kh = Math.floor(hi / groups);
      for (let i = 0; i < t!; i++) {
        const scores: number[] = [];
        for (let j = 0; j < t!; j++) {
          let s = 0;
          for (let e = 0; e < d!; e++)
            s += q[((bi * h! + hi) * t! + i) * d! + e]! * k[((bi * kv! + kh) * t! + j) * d! + e]!;
          scores.push(j <= i && mask[bi * t! + j] ? s / Math.sqrt(d!) : -1e9);
        }
        const p = softmaxRows(scores, t!);
        for (let e = 0; e < d!; e++) {
          let acc = 0;
          for (let j = 0; j < t!; j++) acc += p[j]! * v[((bi * kv! + kh) * t! + j) * d! + e]!;
          out.push(acc);
        }
      }
    }
  return out;
}
