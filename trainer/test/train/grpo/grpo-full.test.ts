import { describe, expect, test } from 'vitest';
import { grpoStep, GrpoLearner } from '../../../src/train/grpo/step.js';
import { FULL } from '../../../src/train/trainable.js';
import type { WeightMap } from '../../../src/model/weights.js';
import { completionLogprobs, config, lora, sampledBy, syntheticGroups, weights } from './grpo-support.js';

/** A GRPO learner that trains every weight: its scorer reads the weights being trained, its reference the start. */
const fullLearner = (start: WeightMap, beta = 0.04) =>
  GrpoLearner.create({
    config,
    weights: start,
    lora,
    train: FULL,
    grpo: { beta },
    temperature: 0.9,
    schedule: { lr: 1e-3 },
    runtime: { intraOpNumThreads: 1 },
  });

describe('GRPO with --train full (learner)', () => {
  test('lp_old scores the weights being trained, the KL reference the model before training; rewarded completions rise', async () => {
    const l = await fullLearner(weights);
    const samples = await sampledBy(l, syntheticGroups());
    const reference = await l.logprobs(samples, null);
    // Before any update the policy is the starting model.
    expect(await l.logprobs(samples)).toEqual(reference);
    const before = await completionLogprobs(l, samples);
    for (let i = 0; i < 4; i++) await grpoStep(l, samples);
    const after = await completionLogprobs(l, samples);
    // The reference stays the start; the policy moved towards the rewarded completions.
    expect(await l.logprobs(samples, null)).toEqual(reference);
    const gain = (reward: number) =>
      samples.reduce((a, s, i) => a + (s.reward === reward ? after[i]! - before[i]! : 0), 0);
    expect(gain(1)).toBeGreaterThan(gain(0));
    // Exactly the log-probs a learner started from the trained weights gives.
    const copy: WeightMap = new Map(
      [...l.trainer.modelWeights()].map(([name, w]) => [name, { shape: w.shape, data: w.data.slice() }]),
    );
    const fresh = await fullLearner(copy);
    expect(await fresh.logprobs(samples)).toEqual(await l.logprobs(samples));
    await Promise.all([l.release(), fresh.release()]);
  });
});
