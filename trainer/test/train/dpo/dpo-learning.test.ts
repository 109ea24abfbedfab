import { expect, test } from 'vitest';
import { initLoraAdapter, type LoraAdapter } from '../../../src/lora/adapter.js';
import { makeLoraConfig } from '../../../src/lora/config.js';
import { tinyModelConfig, tinyModelWeights } from '../../../src/model/tiny.js';
import type { TrainSequence } from '../../../src/train/batch.js';
import { DpoLearner } from '../../../src/train/dpo/learner.js';
import type { DpoPair } from '../../../src/train/dpo/pairs.js';
import { runDpo } from '../../../src/train/dpo/run.js';
import type { DpoOptions } from '../../../src/train/dpo/config.js';
import { copyAdapter } from '../grpo/grpo-support.js';
import { withRandomB } from '../../support/tiny-models.js';

const config = tinyModelConfig({ architecture: 'qwen2', hiddenSize: 32, numHeads: 4, numKvHeads: 2, numLayers: 1 });
const weights = tinyModelWeights(config, 3);
const lora = makeLoraConfig({ rank: 4, alpha: 8 });
const bytes = (s: string): number[] => [...Buffer.from(s, 'utf8')];
const EOS = config.eosTokenIds[0]!;

function sequence(prompt: string, completion: string): TrainSequence {
  const [p, c] = [bytes(prompt), [...bytes(completion), EOS]];
  return { tokens: [...p, ...c], mask: [...p.map(() => 0), ...c.map(() => 1)] };
}

/** Fixed synthetic preferences: for each prompt, one completion preferred over another of a different length. */
const PAIRS: DpoPair[] = [
  ['color? ', 'red', 'blue'],
  ['animal? ', 'cat', 'horse'],
  ['2+2= ', '4', 'five'],
  ['greet: ', 'hello', 'go'],
].map(([prompt, chosen, rejected]) => ({
  chosen: sequence(prompt!, chosen!),
  rejected: sequence(prompt!, rejected!),
}));

function learner(dpo: DpoOptions, options: { adapter?: LoraAdapter; microBatchPairs?: number } = {}) {
  return DpoLearner.create({
    config,
    weights,
    lora,
    dpo,
    adapter: options.adapter ?? initLoraAdapter(config, lora, 11),
    schedule: { lr: 1e-2 },
    ...(options.microBatchPairs ? { microBatchPairs: options.microBatchPairs } : {}),
    runtime: { intraOpNumThreads: 1 },
  });
}

/** Σ log p(completion) of each side under the learner's current adapter. */
async function margins(l: DpoLearner): Promise<number[]> {
  const scored = await l.scorePairs(PAIRS, l.trainer.adapter);
  const sum = (xs: ArrayLike<number>) => Array.from(xs).reduce((a, b) => a + b, 0);
  return scored.map((p) => sum(p.ref.chosen) - sum(p.ref.rejected));
}

test.each<[string, DpoOptions]>([
  ['sigmoid', {}],
  ['sigmoid with label smoothing', { labelSmoothing: 0.1 }],
  ['ipo', { lossType: 'ipo', beta: 0.5 }],
])('a few DPO updates (%s) raise every pair’s chosen − rejected log-prob margin', async (_label, dpo) => {
  const l = await learner(dpo);
  const before = await margins(l);
  const pairs = await l.scorePairs(PAIRS, null);
  const history = await runDpo(l, pairs, { steps: 6, batchSize: 4 });
  const after = await margins(l);
  PAIRS.forEach((_, i) => {
    console.log(`pair ${i}: log p(chosen) − log p(rejected) ${before[i]!.toFixed(3)} → ${after[i]!.toFixed(3)}`);
    expect(after[i]! - before[i]!, `pair ${i}`).toBeGreaterThan(0.1);
  });
  // From the reference itself, then apart: the loss falls and the rewards separate.
  expect(history[0]!.metrics['rewards/margins']).toBeCloseTo(0, 5);
  expect(history.at(-1)!.metrics['rewards/margins']).toBeGreaterThan(0);
  expect(history.at(-1)!.metrics['rewards/accuracies']).toBe(1);
  expect(history.at(-1)!.metrics['loss']).toBeLessThan(history[0]!.metrics['loss']!);
  await l.release();
});

test('the reference is frozen at the start: a starting adapter scored as its own reference gives zero rewards at step 1', async () => {
  const start = withRandomB(initLoraAdapter(config, lora, 11), 4);
  const frozen = copyAdapter(start);
  const l = await learner({}, { adapter: start });
  const againstStart = await l.scorePairs(PAIRS, frozen);
  const againstBase = await l.scorePairs(PAIRS, null);
  const first = await l.step(againstStart);
  expect(first.metrics['rewards/chosen']).toBeCloseTo(0, 5);
  expect(first.metrics['rewards/margins']).toBeCloseTo(0, 5);
  expect(first.metrics['loss']).toBeCloseTo(Math.LN2, 5);
  // The base model is a different reference: the starting adapter already differs from it.
  const l2 = await learner({}, { adapter: copyAdapter(frozen) });
  expect(Math.abs((await l2.step(againstBase)).metrics['rewards/chosen']!)).toBeGreaterThan(1e-4);
  await l.release();
  await l2.release();
});

test('micro-batching by pairs changes nothing: one pass or one pair per pass give the same step', async () => {
  const whole = await learner({});
  const split = await learner({}, { microBatchPairs: 1 });
  const pairs = await whole.scorePairs(PAIRS, null);
  for (let step = 0; step < 2; step++) {
    const [a, b] = [await whole.step(pairs), await split.step(pairs)];
    for (const name of Object.keys(a.metrics)) expect(b.metrics[name], name).toBeCloseTo(a.metrics[name]!, 5);
  }
  const [x, y] = [whole.trainer.adapter.modules, split.trainer.adapter.modules];
  for (const [path, m] of x) m.b.data.forEach((v, i) => expect(y.get(path)!.b.data[i]).toBeCloseTo(v, 5));
  await whole.release();
  await split.release();
});

test('refuses a pair with an empty side and reference log-probs of the wrong length', async () => {
  const l = await learner({});
  const empty = { ...PAIRS[0]!, rejected: { tokens: [1, 2], mask: [0, 0] } };
  await expect(l.scorePairs([empty], null)).rejects.toThrow(
    'DPO pair 0: the rejected side has no trained token (its completion is empty)',
  );
  const [scored] = await l.scorePairs([PAIRS[0]!], null);
  await expect(l.step([{ ...scored!, ref: { ...scored!.ref, chosen: [0] } }])).rejects.toThrow(
    `DPO pair 0: 1 reference log-probs for the chosen side's ${PAIRS[0]!.chosen.tokens.length} tokens`,
  );
  await l.release();
});
