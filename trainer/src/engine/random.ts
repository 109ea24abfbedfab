/** A small seeded generator (mulberry32): same seed, same stream, on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Uniform values in [lo, hi). */
export function uniform(random: () => number, n: number, lo: number, hi: number): Float64Array {
  return Float64Array.from({ length: n }, () => lo + (hi - lo) * random());
}
