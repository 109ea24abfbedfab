/**
 * BrowserGym's MiniWoB++ seed, reproduced so that seed N here plays the page seed N plays there:
 * `numpy.random.RandomState(seed).randint(0, 1_000_000)`, i.e. MT19937 seeded from one 32-bit
 * integer, then NumPy's legacy bounded draw (mask to the next power of two, reject out of range).
 */

const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER_MASK = 0x80000000;
const LOWER_MASK = 0x7fffffff;

/** The 32-bit Mersenne Twister, seeded the way NumPy's RandomState seeds it from an integer. */
export class Mt19937 {
  private readonly state = new Uint32Array(N);
  private index = N;

  constructor(seed: number) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
      throw new RangeError(`MT19937 seeds are integers 0..2^32-1 (got ${seed})`);
    this.state[0] = seed >>> 0;
    for (let i = 1; i < N; i++) {
      const previous = this.state[i - 1]!;
      this.state[i] = (Math.imul(1812433253, previous ^ (previous >>> 30)) + i) >>> 0;
    }
  }

  nextUint32(): number {
    if (this.index >= N) this.twist();
    let y = this.state[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  private twist(): void {
    const mt = this.state;
    for (let k = 0; k < N; k++) {
      const y = (mt[k]! & UPPER_MASK) | (mt[(k + 1) % N]! & LOWER_MASK);
      mt[k] = mt[(k + M) % N]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
    this.index = 0;
  }
}

/** NumPy's legacy `randint(low, high)` for a range below 2^32: masked rejection sampling. */
export function randint(rng: Mt19937, low: number, high: number): number {
  const span = high - low - 1; // inclusive range, as NumPy computes it
  if (!Number.isInteger(low) || !Number.isInteger(high) || span < 0 || span > 0xffffffff)
    throw new RangeError(`randint needs integers low < high within 2^32 of each other (got ${low}, ${high})`);
  if (span === 0) return low;
  let mask = span;
  for (let shift = 1; shift <= 16; shift <<= 1) mask |= mask >>> shift;
  mask >>>= 0;
  for (;;) {
    const draw = (rng.nextUint32() & mask) >>> 0;
    if (draw <= span) return low + draw;
  }
}

/** Largest seed NumPy's RandomState takes (and so BrowserGym's MiniWoB tasks). */
export const MAX_BROWSERGYM_SEED = 0xffffffff;

/** The value BrowserGym passes to `Math.seedrandom` for an episode seed (42 → 121958). */
export function miniwobPageSeed(seed: number): number {
  return randint(new Mt19937(seed), 0, 1_000_000);
}
