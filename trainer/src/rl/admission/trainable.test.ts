import { describe, expect, it } from 'vitest';
import { group, turn } from '../../../test/support/trajectories.js';
import { resolveGrpoConfig } from '../../train/grpo/index.js';
import { defaultTokenLimits, untrainableReason } from './trainable.js';

const policy = { model: 'run@v0', adapter: 'run@v0', version: 0 };
const limits = { vocabSize: 100, maxSequenceTokens: 20 };
const config = resolveGrpoConfig();
const check = (turns: ReturnType<typeof turn>[], edit: (t: Record<string, unknown>) => void = () => {}) => {
  const g = group('g', [1, 0], policy, () => turns);
  edit(g.trajectories[0] as unknown as Record<string, unknown>);
  return untrainableReason(g, limits, config);
};
const sampled = (ids: number[], extra: Partial<ReturnType<typeof turn>> = {}) =>
  turn(0, { completion_ids: ids, logprobs: ids.map(() => -1), policy, ...extra });

describe('untrainableReason', () => {
  it('passes a group the model can take', () => {
    expect(check([sampled([7, 8])])).toBeNull();
  });

  it('names ids outside the vocabulary, wherever they are', () => {
    expect(check([sampled([7, 100])])).toMatch(/^group g episode g\.0: turns\.0\.completion_ids\[1\] is 100, outside/);
    expect(check([sampled([7], { env_ids: [1e9] })])).toMatch(/turns\.0\.env_ids\[0\] is 1000000000/);
    expect(check([sampled([7])], (t) => (t['prompt_ids'] = [-1]))).toMatch(/prompt_ids\[0\] is -1/);
  });

  it('refuses log-probs no sampler gives: NaN, ±Infinity, positive, or far below any drawn token', () => {
    for (const lp of [NaN, Infinity, -Infinity, 5, -1e30])
      expect(check([sampled([7])], (t) => ((t['turns'] as { logprobs: number[] }[])[0]!.logprobs = [lp]))).toMatch(
        /turns\.0\.logprobs\[0\] is .*not a log-prob/,
      );
  });

  it('refuses rewards that overflow the advantages', () => {
    expect(check([sampled([7])], (t) => (t['reward'] = 1e300))).toMatch(/reward 1e\+300 is outside/);
    expect(check([sampled([7])], (t) => (t['reward'] = NaN))).toMatch(/reward NaN/);
  });

  it('measures the sequence the learner would build, before building it', () => {
    // 3 prompt + 17 sampled = 20: at the limit; trailing env ids train nothing and do not count.
    expect(check([sampled(new Array<number>(17).fill(7), { env_ids: new Array<number>(500).fill(1) })])).toBeNull();
    expect(check([sampled(new Array<number>(18).fill(7))])).toMatch(
      /sequence of 21 tokens is longer than the limit of 20/,
    );
    expect(check([sampled([7])], (t) => (t['prompt_ids'] = new Array<number>(200_000).fill(1)))).toMatch(
      /sequence of 200001 tokens/,
    );
    // A trimmed episode is one sample per turn: turn 1 drops turn 0's exchange (3 + 14 and 3 + 2
    // tokens); untrimmed, it would be one sequence of 3 + 14 + 2 + 2.
    const trimmed = [
      sampled(new Array<number>(14).fill(7), { env_ids: [1, 1] }),
      { ...sampled([7, 7]), index: 1, trimmed_exchanges: 1 },
    ];
    expect(check(trimmed)).toBeNull();
    expect(check([trimmed[0]!, { ...trimmed[1]!, trimmed_exchanges: 0 }])).toMatch(/sequence of 21/);
    expect(
      check([
        trimmed[0]!,
        { ...trimmed[1]!, completion_ids: new Array<number>(18).fill(7), logprobs: new Array<number>(18).fill(-1) },
      ]),
    ).toMatch(/sequence of 21/);
  });

  it('refuses what grpoStep would refuse: sampled tokens with no prompt before them', () => {
    expect(check([sampled([7])], (t) => (t['prompt_ids'] = []))).toMatch(/promptIds is empty/);
  });

  it('defaults to the context within one pass', () => {
    expect(defaultTokenLimits({ vocabSize: 10, maxPositionEmbeddings: 32_768 })).toEqual({
      vocabSize: 10,
      maxSequenceTokens: 8192,
    });
    expect(defaultTokenLimits({ vocabSize: 10, maxPositionEmbeddings: 64 }).maxSequenceTokens).toBe(64);
  });
});
