/**
 * The one seeded generator every package uses (mulberry32: 32 bits of state, fast, and the same
 * stream on every machine). Seeds flow explicitly, so the same seed always gives the same
 * layouts, draws and clicks. MiniWoB++'s own pages use numpy's MT19937, a different contract that
 * lives with them.
 */

/** Added to the state before each draw. */
export const MULBERRY32_INCREMENT = 0x6d2b79f5;

/**
 * The value in [0, 1) for an already advanced 32-bit state. Self-contained on purpose: task pages
 * embed its source (`${mulberry32Output}`), so the browser draws exactly what Node does.
 */
export function mulberry32Output(state: number): number {
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** A generator whose state can be saved and restored (a resumed run draws what the first would have). */
export class SeededStream {
  state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** The next value in [0, 1). */
  next(): number {
    this.state = (this.state + MULBERRY32_INCREMENT) >>> 0;
    return mulberry32Output(this.state);
  }
}

/** The stream as a function: each call is the next value in [0, 1). */
export function seededRandom(seed: number): () => number {
  const stream = new SeededStream(seed);
  return () => stream.next();
}

/** FNV-1a: a stable 32-bit seed from a string (an episode id, a label). */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
