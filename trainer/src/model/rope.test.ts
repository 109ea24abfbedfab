import { describe, expect, it } from 'vitest';
import { ropeInverseFrequencies } from './rope.js';

describe('ropeInverseFrequencies', () => {
  it('is θ^(−2i/d) without scaling', () => {
    const frequencies = ropeInverseFrequencies(8, 10_000, null);
    expect([...frequencies]).toEqual([1, 10_000 ** -0.25, 10_000 ** -0.5, 10_000 ** -0.75]);
  });

  it('divides every frequency by the factor with linear scaling', () => {
    const plain = ropeInverseFrequencies(16, 10_000, null);
    const linear = ropeInverseFrequencies(16, 10_000, { type: 'linear', factor: 4 });
    linear.forEach((f, i) => expect(f).toBeCloseTo(plain[i]! / 4, 15));
  });

  it('matches transformers for Llama 3.1 scaling (values from _compute_llama3_parameters)', () => {
    const scaled = ropeInverseFrequencies(128, 500_000, {
      type: 'llama3',
      factor: 8,
      lowFreqFactor: 1,
      highFreqFactor: 4,
      originalMaxPositionEmbeddings: 8192,
    });
    const expected: [number, number][] = [
      [0, 1.0], // short wavelength: kept
      [20, 0.016560440080994446],
      [30, 0.0013718935677611381], // in the band: interpolated
      [40, 3.428102195952591e-5], // long wavelength: divided by 8
      [63, 3.068925988914511e-7],
    ];
    for (const [i, value] of expected) expect(scaled[i]).toBeCloseTo(value, 15);
  });
});
