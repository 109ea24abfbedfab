import { describe, expect, test } from 'vitest';
import { teacherTopK } from './top-k.js';

describe("the teacher's top-k support", () => {
  test('keeps the k likeliest ids per row and renormalises their log-probs', () => {
    const rows = Float32Array.from([0.1, 0.5, 0.2, 0.2, 0.7, 0.1, 0.1, 0.1].map(Math.log));
    const { ids, logprobs } = teacherTopK(rows, 4, 2);
    // Row 0: ids 1 (0.5) then 2 (0.2, the lower of the tied ids 2 and 3) → 5/7, 2/7. Row 1: 0 (0.7), then 1 → 7/8, 1/8.
    expect([...ids].map(Number)).toEqual([1, 2, 0, 1]);
    [5 / 7, 2 / 7, 7 / 8, 1 / 8].forEach((p, i) => expect(logprobs[i]).toBeCloseTo(Math.log(p), 6));
  });

  test('k = vocabulary keeps every token, its log-probs unchanged', () => {
    const rows = Float32Array.from([0.25, 0.75].map(Math.log));
    const { ids, logprobs } = teacherTopK(rows, 2, 2);
    expect([...ids].map(Number)).toEqual([1, 0]);
    expect(logprobs[0]).toBeCloseTo(Math.log(0.75), 6);
  });

  test('k outside [1, vocabulary] is refused', () => {
    expect(() => teacherTopK(new Float32Array(4), 4, 5)).toThrow(/top-k must be an integer in \[1, 4\], got 5/);
  });
});
