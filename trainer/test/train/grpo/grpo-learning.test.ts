import { expect, test } from 'vitest';
import { grpoStep } from '../../../src/train/grpo/step.js';
import { completionLogprobs, learner, sampledBy, syntheticGroups } from './grpo-support.js';

test('on fixed groups, a few GRPO updates raise the log-prob of every rewarded completion and lower every other', async () => {
  // The default knobs (dapo, token ratios, sequence-mask sampler correction) with an on-policy sampler.
  const l = await learner({});
  const groups = syntheticGroups();
  const before = await completionLogprobs(l, groups);
  for (let step = 0; step < 5; step++) {
    const result = await grpoStep(l, await sampledBy(l, groups));
    expect(result.metrics['sampling/importance_sampling_ratio/min']).toBeGreaterThan(0.99);
  }
  const after = await completionLogprobs(l, groups);
  groups.forEach((s, i) => {
    const moved = after[i]! - before[i]!;
    console.log(`${s.group} reward ${s.reward}: Σ log p ${before[i]!.toFixed(3)} → ${after[i]!.toFixed(3)}`);
    if (s.reward > 0) expect(moved, `completion ${i} (rewarded)`).toBeGreaterThan(0.2);
    else expect(moved, `completion ${i} (not rewarded)`).toBeLessThan(-0.2);
  });
  await l.release();
});

test('groups whose rewards are all equal teach nothing: zero advantages leave the log-probs where they were', async () => {
  const l = await learner({ samplerCorrection: null });
  const groups = syntheticGroups().map((s) => ({ ...s, reward: 0.5 }));
  const before = await completionLogprobs(l, groups);
  const result = await grpoStep(l, groups);
  expect(result.metrics['frac_reward_zero_std']).toBe(1);
  expect(result.advantages.every((a) => a === 0)).toBe(true);
  expect(result.metrics['grad_norm']).toBe(0);
  const after = await completionLogprobs(l, groups);
  after.forEach((v, i) => expect(v).toBeCloseTo(before[i]!, 5));
  await l.release();
});
