/**
 * The fuzzer's seeded random source (splitmix32), so a failing run can be replayed exactly:
 * findings print the seed, and FUZZ_SEED=<n> runs those inputs again.
 */
export class Rng {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed | 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x9e3779b9) | 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return ((z ^ (z >>> 16)) >>> 0) / 2 ** 32;
  }

  /** An integer in [0, max). */
  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** FUZZ_SEED when it is set (to replay a run), else a fixed seed, so CI runs the same inputs every time. */
export function fuzzSeed(): number {
  const given = Number(process.env['FUZZ_SEED']);
  return Number.isInteger(given) ? given : 16_0411;
}
