import { describe, expect, it } from 'vitest';
import { withPromptWeight } from '../../../train/sft-encode.js';
import { completionLoss } from './job.js';

describe('completionLoss', () => {
  it('averages −log p over the completion tokens (mask 1) only, whatever the prompt tokens weigh', () => {
    const batch = [
      { tokens: [1, 2, 3, 4], mask: [0.1, 0.1, 1, 1] },
      { tokens: [5, 6, 7], mask: [0, 0.1, 1] },
    ];
    const logprobs = [Float32Array.of(0, -9, -1, -2), Float32Array.of(0, -9, -3)];
    expect(completionLoss(batch, logprobs)).toBeCloseTo(2);
    expect(completionLoss([{ tokens: [1, 2], mask: [0, 0.5] }], [Float32Array.of(0, -1)])).toBe(0);
  });

  it("tells completions apart by the weighted sequence's own record of them, even at prompt weight 1", () => {
    const encoded = { tokens: [1, 2, 3, 4], mask: [0, 0, 1, 1] };
    const weighted = withPromptWeight(encoded, 1);
    expect(weighted.mask).toEqual([1, 1, 1, 1]);
    expect(completionLoss([weighted], [Float32Array.of(0, -9, -1, -3)])).toBeCloseTo(2);
  });
});
