import { describe, expect, test } from 'vitest';
import { initLoraAdapter } from '../../../src/lora/adapter.js';
import { groupSamples } from '../../../src/rl/samples/convert.js';
import { resolveGrpoConfig } from '../../../src/train/grpo/config.js';
import { grpoStep } from '../../../src/train/grpo/step.js';
import { trainedMask } from '../../../src/train/grpo/samples.js';
import { withRandomB } from '../../support/tiny-models.js';
import { episode, group, turn } from '../../support/trajectories.js';
import { bytes, config, copyAdapter, learner, lora } from './grpo-support.js';

const policy = { model: 'run@v0', adapter: 'run@v0', version: 0 };
const page = (url: string) =>
  `# Goal\nLog in.\n\n# Current page\n${url}\n\n# Last action\n(none)\n\n# Accessibility tree\n`;
const sampled = (text: string) => ({ completion_ids: bytes(text), logprobs: bytes(text).map(() => -1) });

// Two three-turn episodes through the same pages (one rewarded at the end), one that leaves early:
// every turn gets its own advantage, so a multi-turn sample carries three different values.
const trajectories = [
  episode(
    'g',
    0,
    [
      turn(0, { observation: page('/a'), ...sampled('ab'), env_ids: bytes('\n1') }),
      turn(1, { observation: page('/b'), ...sampled('cd'), env_ids: bytes('\n2') }),
      turn(2, { observation: page('/c'), ...sampled('e'), reward: 1, done: true }),
    ],
    1,
  ),
  episode(
    'g',
    1,
    [
      turn(0, { observation: page('/a'), ...sampled('ax'), env_ids: bytes('\n3') }),
      turn(1, { observation: page('/b'), ...sampled('cy'), env_ids: bytes('\n4') }),
      turn(2, { observation: page('/d'), ...sampled('z'), done: true }),
    ],
    0,
  ),
  episode('g', 2, [turn(0, { observation: page('/a'), ...sampled('q'), done: true })], 0),
];
const groups = [{ ...group('g', [1, 0, 0], policy), trajectories }];
const credit = { stepWeight: 1, gamma: 0.9 };
const start = () => withRandomB(initLoraAdapter(config, lora, 11), 12);

describe('grpoStep with advantage gigpo', () => {
  test('each turn’s advantage reaches the loss on that turn’s tokens of a multi-turn sample', async () => {
    const { samples } = groupSamples(groups, 'group', credit);
    expect(new Set(samples[0]!.tokenAdvantages).size).toBe(3);
    const l = await learner({ advantage: 'gigpo', samplerCorrection: null }, { adapter: start() });
    const lp = await l.logprobs(samples);
    // Old log-probs below the current ones by a different amount per token: ratios 1.03, 1.06, …
    // (some past the clip at 1.2), so where each advantage sits changes the loss.
    const shift = (t: number) => 0.03 * (1 + (t % 8));
    const given = samples.map((s, i) => ({ ...s, oldLogprobs: Array.from(lp[i]!, (v, t) => v - shift(t)) }));
    const result = await grpoStep(l, given);
    const cfg = resolveGrpoConfig({ advantage: 'gigpo', samplerCorrection: null });
    let [sum, tokens] = [0, 0];
    given.forEach((s) =>
      trainedMask(s, cfg).forEach((m, t) => {
        if (!m) return;
        const [r, a] = [Math.exp(shift(t)), s.tokenAdvantages![t]!];
        sum += Math.min(r * a, Math.min(Math.max(r, 0.8), 1.2) * a);
        tokens++;
      }),
    );
    expect(result.updates[0]!.loss).toBeCloseTo(-sum / tokens, 5);
    await l.release();
  });

  test('per-token advantages all equal to the episode’s train exactly as GRPO does', async () => {
    const { samples } = groupSamples(groups, 'group');
    const adapter = start();
    const [a, b] = [
      await learner({ samplerCorrection: null }, { adapter: copyAdapter(adapter) }),
      await learner({ advantage: 'gigpo', samplerCorrection: null }, { adapter: copyAdapter(adapter) }),
    ];
    const flat = samples.map((s) => ({ ...s, tokenAdvantages: s.completionIds.map(() => s.advantage!) }));
    const [x, y] = [await grpoStep(a, samples), await grpoStep(b, flat)];
    expect(y.updates[0]!.loss).toBeCloseTo(x.updates[0]!.loss, 6);
    expect(y.updates[0]!.gradNorm).toBeCloseTo(x.updates[0]!.gradNorm, 6);
    await expect(grpoStep(b, samples)).rejects.toThrow(/GRPO sample 0: tokenAdvantages are missing/);
    await a.release();
    await b.release();
  });
});
