import { describe, expect, test } from 'vitest';
import * as o from '../../src/engine/ops.js';
import { copyAdapter, initLoraAdapter, type LoraAdapter } from '../../src/lora/adapter.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import { tinyModelConfig, tinyModelWeights } from '../../src/model/tiny.js';
import { collate, type TrainSequence } from '../../src/train/batch.js';
import type { LossFn } from '../../src/train/loss.js';
import { buildTrainGraph } from '../../src/train/train-graph.js';
import { LoraTrainer } from '../../src/train/trainer.js';

const config = tinyModelConfig({ architecture: 'llama', hiddenSize: 32, numHeads: 4, numKvHeads: 2, numLayers: 1 });
const weights = tinyModelWeights(config, 3);
const lora = makeLoraConfig({ rank: 2, targets: ['q_proj', 'v_proj', 'down_proj'] });
const batch: TrainSequence[] = [
  { tokens: [1, 2, 3, 4, 5, 6], mask: [0, 0, 1, 1, 1, 1] },
  { tokens: [7, 8, 9], mask: [0, 1, 1] },
  { tokens: [10, 11, 12, 13], mask: [0, 0, 0, 1] },
];

const trainerWith = (adapter: LoraAdapter, microBatchSize: number, loss?: LossFn) =>
  LoraTrainer.create({
    config,
    weights,
    lora,
    adapter,
    microBatchSize,
    ...(loss ? { loss } : {}),
    schedule: { lr: 1e-2 },
    runtime: { intraOpNumThreads: 1 },
  });

describe('LoRA trainer', () => {
  test('a step that fails after some micro-batches leaves no gradients behind: the next step is a clean one', async () => {
    const start = initLoraAdapter(config, lora, 9);
    const failed = await trainerWith(copyAdapter(start), 1);
    const clean = await trainerWith(copyAdapter(start), 1);
    // Fails once a pass has accumulated gradients (as an engine error in a later pass would).
    const midway = {
      throwIfAborted: () => {
        if ((failed as unknown as { pending: number }).pending > 0) throw new Error('engine refused the pass');
      },
    } as unknown as AbortSignal;
    await expect(failed.trainStep(batch, { signal: midway })).rejects.toThrow(/engine refused/);
    expect(failed.step).toBe(0);
    const [a, b] = [await failed.trainStep(batch), await clean.trainStep(batch)];
    expect(a.gradNorm).toBe(b.gradNorm);
    for (const [path, m] of clean.adapter.modules) expect(failed.adapter.modules.get(path)!.a.data).toEqual(m.a.data);
  });

  test('micro-batching changes nothing: one step over 1+1+1 sequences equals one over all 3', async () => {
    const start = initLoraAdapter(config, lora, 9);
    const whole = await trainerWith(copyAdapter(start), 3);
    const split = await trainerWith(copyAdapter(start), 1);
    const a = await whole.trainStep(batch);
    const b = await split.trainStep(batch);
    expect(b.microBatches).toBe(3);
    expect(b.loss).toBeCloseTo(a.loss, 5);
    expect(b.gradNorm).toBeCloseTo(a.gradNorm, 5);
    expect(a.tokens).toBe(7);
    for (const [path, m] of whole.adapter.modules) {
      const other = split.adapter.modules.get(path)!;
      for (let i = 0; i < m.a.data.length; i++) expect(other.a.data[i]).toBeCloseTo(m.a.data[i]!, 5);
    }
    // log-probs come back aligned with each sequence's tokens (index 0 has no prediction)
    expect(a.logprobs[1]).toHaveLength(3);
    expect(a.logprobs[1]![0]).toBe(0);
    expect(a.logprobs[1]![1]).toBeLessThan(0);
    await whole.release();
    await split.release();
  });

  test('accumulating two halves then one update equals one step over the whole batch', async () => {
    const start = initLoraAdapter(config, lora, 9);
    const whole = await trainerWith(copyAdapter(start), 3);
    const streamed = await trainerWith(copyAdapter(start), 3);
    await whole.trainStep(batch);
    const totals = { tokens: 7, sequences: 3 };
    await streamed.accumulate(batch.slice(0, 2), totals);
    await streamed.accumulate(batch.slice(2), totals);
    streamed.applyUpdate();
    const path = [...whole.adapter.modules.keys()][0]!;
    const [x, y] = [whole.adapter.modules.get(path)!.a.data, streamed.adapter.modules.get(path)!.a.data];
    for (let i = 0; i < x.length; i++) expect(y[i]).toBeCloseTo(x[i]!, 6);
    expect(() => streamed.applyUpdate()).toThrow(/no gradients accumulated/);
    await whole.release();
    await streamed.release();
  });

  test('each step starts from fresh gradients: step 2 matches a new trainer started from step 1', async () => {
    const trained = await trainerWith(initLoraAdapter(config, lora, 9), 2);
    await trained.trainStep(batch);
    const fresh = await trainerWith(copyAdapter(trained.adapter), 2);
    const [second, first] = [await trained.trainStep(batch), await fresh.trainStep(batch)];
    expect(second.gradNorm).toBeGreaterThan(0);
    expect(second.gradNorm).toBeCloseTo(first.gradNorm, 6);
    await trained.release();
    await fresh.release();
  });

  test('a pluggable loss declares per-sequence and per-token inputs and reports metrics', async () => {
    // advantage-weighted log-likelihood minus a per-token baseline: the shape GRPO's loss will take
    const weighted: LossFn = {
      name: 'weighted',
      build: (c) => {
        const perToken = o.mul(
          o.sub(c.logprobs, c.tokenInput('baseline')),
          o.unsqueeze(c.sequenceInput('advantage'), [1]),
        );
        const total = o.div(o.reduceSum(o.mul(perToken, c.mask), [], false), c.totalTokens());
        return { loss: o.neg(total), metrics: { masked_tokens: o.reduceSum(c.mask, [], false) } };
      },
    };
    const trainer = await trainerWith(initLoraAdapter(config, lora, 1), 2, weighted);
    const rows = batch.map((s, i) => ({ ...s, extras: { advantage: i - 1, baseline: s.tokens.map(() => -5) } }));
    const result = await trainer.trainStep(rows);
    expect(result.metrics['masked_tokens']).toBe(7);
    expect(Number.isFinite(result.loss)).toBe(true);
    await expect(trainer.trainStep(batch)).rejects.toThrow(
      /training sequence \d: extras\.advantage must be a number \(the loss reads it\)/,
    );
    await trainer.release();
  });

  test('bad sequences are refused with the index and field', async () => {
    const trainer = await trainerWith(initLoraAdapter(config, lora, 1), 2);
    await expect(trainer.trainStep([{ tokens: [1], mask: [1] }])).rejects.toThrow(
      /training sequence 0: needs at least 2 tokens/,
    );
    await expect(trainer.trainStep([batch[0]!, { tokens: [1, 2], mask: [1] }])).rejects.toThrow(
      /training sequence 1: mask has 1 entries for 2 tokens/,
    );
    await expect(trainer.trainStep([{ tokens: [1, 9999], mask: [0, 1] }])).rejects.toThrow(
      /token 1 is 9999, outside the vocabulary \[0, 259\)/,
    );
    const aborted = new AbortController();
    aborted.abort();
    await expect(trainer.trainStep(batch, { signal: aborted.signal })).rejects.toThrow(/aborted/);
    await trainer.release();
  });

  test('same seed, same batches, same adapter: training is deterministic', async () => {
    const run = async () => {
      const trainer = await LoraTrainer.create({
        config,
        weights,
        lora,
        seed: 42,
        schedule: { lr: 1e-2 },
        runtime: { intraOpNumThreads: 1 },
      });
      await trainer.trainStep(batch);
      await trainer.trainStep(batch);
      const bytes = [...trainer.adapter.modules.values()].flatMap((m) => [...m.a.data, ...m.b.data]);
      await trainer.release();
      return bytes;
    };
    const [first, second] = [await run(), await run()];
    expect(second).toEqual(first);
    expect(first.some((v) => v !== 0)).toBe(true);
  });

  test('collation shifts targets by one and right-pads with mask 0', () => {
    const graph = buildTrainGraph(config, weights, {
      lora,
      loss: { name: 'sum', build: (c) => ({ loss: o.reduceSum(c.logprobs, [], false) }) },
      withGradients: false,
    });
    const feeds = collate(batch.slice(1), graph, { tokens: 2, sequences: 2 });
    const n = (name: string) => Array.from(feeds[name]!.data as ArrayLike<number | bigint>, Number);
    expect(feeds['input_ids']!.dims).toEqual([2, 3]);
    expect(n('input_ids')).toEqual([7, 8, 0, 10, 11, 12]);
    expect(n('target_ids')).toEqual([8, 9, 0, 11, 12, 13]);
    expect(n('loss_mask')).toEqual([1, 1, 0, 0, 0, 1]);
    expect(n('attention_mask')).toEqual([1, 1, 0, 1, 1, 1]);
    // the LM head runs only where a target is trained
    expect(n('score_index')).toEqual([0, 1, 5]);
  });
});
