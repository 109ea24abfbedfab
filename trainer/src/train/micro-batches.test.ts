import { describe, expect, it } from 'vitest';
import { MICRO_BATCH_TOKENS, microBatches } from './micro-batches.js';

const ofLengths = (...lengths: number[]) => lengths.map((n) => ({ tokens: new Array<number>(n).fill(1), mask: [] }));

describe('microBatches', () => {
  it('takes `size` rows per pass, longest first', () => {
    expect(microBatches(ofLengths(3, 9, 5, 7, 2), 2)).toEqual([[1, 3], [2, 0], [4]]);
  });

  it('without a size, fills each pass up to MICRO_BATCH_TOKENS at its longest row', () => {
    const long = MICRO_BATCH_TOKENS / 2;
    const short = MICRO_BATCH_TOKENS / 8;
    const passes = microBatches(ofLengths(short, long, short, long, long, ...new Array(10).fill(short)));
    // Two long rows fill a pass; the pass that starts at the third long row takes a short one too.
    expect(passes.map((p) => p.length)).toEqual([2, 2, 8, 3]);
    expect(passes.slice(0, 2)).toEqual([
      [1, 3],
      [4, 0],
    ]);
    expect(passes.flat().sort((a, b) => a - b)).toEqual([...Array(15).keys()]);
  });

  it('gives a row longer than the budget a pass of its own', () => {
    expect(microBatches(ofLengths(MICRO_BATCH_TOKENS * 2, 3, MICRO_BATCH_TOKENS * 3))).toEqual([[2], [0], [1]]);
  });

  it('keeps a small batch in one pass', () => {
    expect(microBatches(ofLengths(10, 20, 30))).toEqual([[2, 1, 0]]);
    expect(microBatches([])).toEqual([]);
  });
});
