import { SeededStream } from '@gauntlet/proto/random';

/**
 * The Gauntlet's seeded randomness. Every decision of a run (challenge order, codes, layouts,
 * decoys, delays) comes from an Rng keyed by the reset seed plus a label, so one step's details
 * do not shift when another step draws more numbers, and the same seed always gives the same run.
 */
export class Rng {
  private readonly stream: SeededStream;

  /** `parts` are mixed into one 32-bit state: (seed, 'step', 7) and (seed, 'step', 8) are unrelated. */
  constructor(...parts: (number | string)[]) {
    let h = 0x811c9dc5;
    for (const part of parts) {
      const text = typeof part === 'number' ? `#${part}` : `$${part}`;
      for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
      h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
    }
    this.stream = new SeededStream(h);
  }

  next(): number {
    return this.stream.next();
  }

  /** An integer in [lo, hi], both included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** A multiple of `step` in [lo, hi] (delays read better as round numbers). */
  round(lo: number, hi: number, step: number): number {
    return step * this.int(Math.ceil(lo / step), Math.floor(hi / step));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[this.int(0, items.length - 1)]!;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  /** `n` distinct items in random order. */
  sample<T>(items: readonly T[], n: number): T[] {
    if (n > items.length) throw new RangeError(`cannot sample ${n} of ${items.length}`);
    return this.shuffle(items).slice(0, n);
  }

  /** `length` characters drawn from `alphabet`. */
  string(alphabet: string, length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[this.int(0, alphabet.length - 1)];
    return out;
  }
}
