/**
 * A small seeded PRNG (sfc32, seeded through splitmix32) for weight and LoRA initialisation.
 * Math.random cannot be seeded, and determinism is a feature here: same seed, same bytes on disk.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  uniform(low: number, high: number): number;
  /** Standard normal (Box–Muller). */
  normal(): number;
}

export function createRng(seed: number): Rng {
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw new RangeError(`seed must be a non-negative integer (got ${seed})`);
  let mix = (seed >>> 0) ^ Math.floor(seed / 2 ** 32);
  const splitmix = (): number => {
    mix = (mix + 0x9e3779b9) | 0;
    let z = mix;
    z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
    z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
    return (z ^ (z >>> 15)) >>> 0;
  };
  let a = splitmix();
  let b = splitmix();
  let c = splitmix();
  let d = splitmix();
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 2 ** 32;
  };
  return {
    next,
    uniform: (low, high) => low + (high - low) * next(),
    normal: () => {
      const u = 1 - next(); // (0, 1]: keeps log finite
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
    },
  };
}
