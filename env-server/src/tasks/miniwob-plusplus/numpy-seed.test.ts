import { describe, expect, it } from 'vitest';
import { miniwobPageSeed, Mt19937, randint } from './numpy-seed.js';

// Expected values computed with NumPy 2.4: `numpy.random.RandomState(seed).randint(0, 1000000)`.
const PAGE_SEEDS: Record<number, number> = {
  0: 985772,
  1: 128037,
  2: 875688,
  3: 71530,
  42: 121958,
  123: 773630,
  999: 882112,
  65535: 972970,
  2147483647: 346095,
  4294967295: 944547,
  3735928559: 227965,
};

describe("BrowserGym's MiniWoB++ page seed", () => {
  it.each(Object.entries(PAGE_SEEDS))('seed %s → %s, as NumPy draws it', (seed, expected) => {
    expect(miniwobPageSeed(Number(seed))).toBe(expected);
  });

  it('later draws and other ranges follow NumPy too', () => {
    const rng = new Mt19937(42);
    expect([0, 1, 2].map(() => randint(rng, 0, 1_000_000))).toEqual([121958, 671155, 131932]);
    const small = new Mt19937(7);
    expect([0, 1, 2, 3, 4].map(() => randint(small, 0, 10))).toEqual([4, 9, 6, 3, 3]);
    expect(randint(small, 5, 6)).toBe(5);
    const full = new Mt19937(5);
    expect([0, 1, 2].map(() => randint(full, 0, 2 ** 32))).toEqual([953453411, 236996814, 3739766767]);
  });

  it('refuses seeds NumPy refuses', () => {
    expect(() => miniwobPageSeed(-1)).toThrow(RangeError);
    expect(() => miniwobPageSeed(2 ** 32)).toThrow(RangeError);
    expect(() => miniwobPageSeed(1.5)).toThrow(RangeError);
  });
});
