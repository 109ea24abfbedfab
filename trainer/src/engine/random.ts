export { seededRandom } from '@gauntlet/proto/random';

/** Uniform values in [lo, hi). */
export function uniform(random: () => number, n: number, lo: number, hi: number): Float64Array {
  return Float64Array.from({ length: n }, () => lo + (hi - lo) * random());
}
