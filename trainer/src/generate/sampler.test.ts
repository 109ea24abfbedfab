import { describe, expect, it } from 'vitest';
import { createRng } from '../model/random.js';
import { logSoftmax, sampleToken } from './sampler.js';
import { samplingParams } from './sampling-params.js';

const logits = Float32Array.from([2, 1.9, 0.5, -1, -3]);
const draws = (overrides: Parameters<typeof samplingParams>[0], history: number[] = [], count = 300) => {
  const rng = createRng(1);
  const seen = new Set<number>();
  for (let i = 0; i < count; i++) seen.add(sampleToken(logits, samplingParams(overrides), history, rng).id);
  return [...seen].sort();
};

describe('sampleToken', () => {
  it('filters as asked: top-k, top-p, min-p; greedy takes the argmax', () => {
    expect(draws({ temperature: 1 })).toEqual([0, 1, 2, 3, 4]);
    expect(draws({ topK: 2 })).toEqual([0, 1]);
    // p(0) ≈ 0.45, p(1) ≈ 0.41: the first two cover 0.8.
    expect(draws({ topP: 0.8 })).toEqual([0, 1]);
    expect(draws({ minP: 0.2 })).toEqual([0, 1, 2]);
    expect(draws({ temperature: 0 })).toEqual([0]);
  });

  it('repetition penalty and a mask of allowed tokens steer the greedy choice', () => {
    expect(draws({ temperature: 0, repetitionPenalty: 1.2 }, [0])).toEqual([1]);
    expect(draws({ temperature: 0 }, [], 1)).toEqual([0]);
    const rng = createRng(0);
    expect(sampleToken(logits, samplingParams({ temperature: 0 }), [], rng, Uint8Array.from([0, 0, 1, 1, 0])).id).toBe(2);
  });

  it('reports log-softmax(logits / T) of the drawn token, whatever the filters, and the top alternatives', () => {
    const token = sampleToken(logits, samplingParams({ temperature: 0.7, topK: 1, topLogprobs: 3 }), [], createRng(0));
    const expected = logSoftmax(logits, 0.7);
    expect(token.logprob).toBeCloseTo(expected[0]!, 12);
    expect(token.top.map((t) => t.id)).toEqual([0, 1, 2]);
  });
});
