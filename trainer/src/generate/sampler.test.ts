import { describe, expect, it } from 'vitest';
import { createRng } from '../model/random.js';
import { LOGPROBS_MODES, logSoftmax, sampleToken, type LogprobsMode } from './sampler.js';
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
    expect(sampleToken(logits, samplingParams({ temperature: 0 }), [], rng, Uint8Array.from([0, 0, 1, 1, 0])).id).toBe(
      2,
    );
  });

  const sample = (
    mode: LogprobsMode,
    overrides: Parameters<typeof samplingParams>[0],
    history: number[] = [],
    allowed?: Uint8Array,
  ) => sampleToken(logits, samplingParams({ topLogprobs: 5, ...overrides }), history, createRng(3), allowed, mode);
  const values = (token: ReturnType<typeof sampleToken>) => Object.fromEntries(token.top.map((t) => [t.id, t.logprob]));

  it('raw_logprobs (the default): log-softmax of the logits, whatever the temperature, filters and penalties', () => {
    const raw = logSoftmax(logits);
    for (const overrides of [
      { temperature: 0.7 },
      { temperature: 1.6, topK: 1 },
      { temperature: 0 },
      { temperature: 0.5, topP: 0.5, repetitionPenalty: 1.5 },
    ]) {
      const token = sample('raw_logprobs', overrides, [0]);
      expect(token.logprob).toBeCloseTo(raw[token.id]!, 12);
      expect(token.top.map((t) => t.id)).toEqual([0, 1, 2, 3, 4]);
      token.top.forEach((t) => expect(t.logprob).toBeCloseTo(raw[t.id]!, 12));
    }
    expect(sampleToken(logits, samplingParams({ temperature: 0.7 }), [], createRng(3)).logprob).toBe(
      sample('raw_logprobs', { temperature: 0.7 }).logprob,
    );
  });

  it('processed_logprobs: the distribution drawn from, log-softmax(logits / T) with no filters, renormalised over what filters keep', () => {
    const scaled = logSoftmax(logits, 0.7);
    const plain = sample('processed_logprobs', { temperature: 0.7 });
    expect(plain.logprob).toBeCloseTo(scaled[plain.id]!, 12);
    plain.top.forEach((t) => expect(t.logprob).toBeCloseTo(scaled[t.id]!, 12));
    // top-k 2: tokens 0 and 1 share all the mass, the rest is ruled out.
    const two = values(sample('processed_logprobs', { temperature: 0.7, topK: 2 }));
    expect(Math.exp(two[0]!) + Math.exp(two[1]!)).toBeCloseTo(1, 12);
    expect(two[0]! - two[1]!).toBeCloseTo((2 - Math.fround(1.9)) / 0.7, 12);
    expect([two[2], two[3], two[4]]).toEqual([-Infinity, -Infinity, -Infinity]);
    expect(sample('processed_logprobs', { temperature: 1.3, topK: 1 }).logprob).toBe(0);
    // A mask and the repetition penalty shape it too; greedy applies no temperature.
    const masked = values(
      sample('processed_logprobs', { temperature: 0, repetitionPenalty: 1.2 }, [0], Uint8Array.from([1, 1, 1, 0, 0])),
    );
    const penalised = Float32Array.from([2 / 1.2, 1.9, 0.5, -Infinity, -Infinity]);
    const expected = logSoftmax(penalised);
    [0, 1, 2].forEach((id) => expect(masked[id]).toBeCloseTo(expected[id]!, 6));
    expect(masked[3]).toBe(-Infinity);
  });

  it('processed_logprobs, unconstrained: the grammar mask shapes the draw but not the values; everything else does', () => {
    const mask = Uint8Array.from([0, 1, 1, 0, 1]);
    const draw = (constrained: 'drawn' | 'unconstrained', overrides: Parameters<typeof samplingParams>[0]) =>
      sampleToken(
        logits,
        samplingParams({ topLogprobs: 5, ...overrides }),
        [1],
        createRng(3),
        mask,
        'processed_logprobs',
        constrained,
      );
    const scaled = logSoftmax(Float32Array.from([2, Math.fround(1.9) / 1.5, 0.5, -1, -3]), 0.7);
    for (const seed of [0, 1, 2, 3]) {
      const params = samplingParams({ temperature: 0.7, repetitionPenalty: 1.5, seed });
      const open = sampleToken(logits, params, [1], createRng(seed), mask, 'processed_logprobs', 'unconstrained');
      const drawn = sampleToken(logits, params, [1], createRng(seed), mask, 'processed_logprobs', 'drawn');
      expect(open.id).toBe(drawn.id);
      expect(mask[open.id]).toBe(1);
      expect(open.logprob).toBeCloseTo(scaled[open.id]!, 12);
      // Drawn values are renormalised over the allowed tokens, so each is higher.
      expect(drawn.logprob).toBeGreaterThan(open.logprob + 1e-3);
    }
    const open = values(draw('unconstrained', { temperature: 0.7, repetitionPenalty: 1.5 }));
    [0, 1, 2, 3, 4].forEach((id) => expect(open[id]).toBeCloseTo(scaled[id]!, 12));
    // Filters still apply, over every token: top-k 2 keeps tokens 0 and 1, though the mask rules 0 out.
    const two = values(draw('unconstrained', { temperature: 0.7, repetitionPenalty: 1.5, topK: 2 }));
    expect(Math.exp(two[0]!) + Math.exp(two[1]!)).toBeCloseTo(1, 12);
    expect(two[2]).toBe(-Infinity);
    // Greedy: the penalised logits, no temperature, no mask.
    const greedy = values(draw('unconstrained', { temperature: 0, repetitionPenalty: 1.5 }));
    const expected = logSoftmax(Float32Array.from([2, Math.fround(1.9) / 1.5, 0.5, -1, -3]));
    [0, 1, 2, 3, 4].forEach((id) => expect(greedy[id]).toBeCloseTo(expected[id]!, 6));
    // Without a mask the two are the same.
    const params = samplingParams({ temperature: 0.9, topLogprobs: 5 });
    expect(sampleToken(logits, params, [], createRng(4), undefined, 'processed_logprobs', 'unconstrained')).toEqual(
      sampleToken(logits, params, [], createRng(4), undefined, 'processed_logprobs', 'drawn'),
    );
  });

  it('raw_logits and processed_logits: the same, as logits', () => {
    expect(values(sample('raw_logits', { temperature: 0.7, topK: 2 }))).toEqual({
      0: 2,
      1: Math.fround(1.9),
      2: 0.5,
      3: -1,
      4: -3,
    });
    const processed = values(sample('processed_logits', { temperature: 0.5, topK: 2 }));
    expect([processed[0], processed[1], processed[2]]).toEqual([4, Math.fround(1.9) / 0.5, -Infinity]);
  });

  it('every mode draws the same token for the same seed', () => {
    for (const overrides of [{ temperature: 0.9 }, { temperature: 1.2, topP: 0.9, minP: 0.05 }]) {
      const ids = LOGPROBS_MODES.map((mode) => sample(mode, overrides).id);
      expect(new Set(ids).size).toBe(1);
    }
  });
});
