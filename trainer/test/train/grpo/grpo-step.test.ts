import { describe, expect, test } from 'vitest';
import { initLoraAdapter } from '../../../src/lora/adapter.js';
import { ModelRunner } from '../../../src/graph/graph-runner.js';
import { METRIC_SOURCES } from '../../../src/train/grpo/metrics.js';
import { grpoStep } from '../../../src/train/grpo/step.js';
import { withRandomB } from '../../support/tiny-models.js';
import { config, copyAdapter, learner, lora, sampledBy, syntheticGroups, weights } from './grpo-support.js';

const groups = syntheticGroups();
// red, blue, pink, teal + EOS; cat, dog, fox, owl + EOS
const LENGTHS = [4, 5, 5, 5, 4, 4, 4, 4];
const TOKENS = LENGTHS.reduce((a, b) => a + b, 0);
const randomAdapter = () => withRandomB(initLoraAdapter(config, lora, 11), 12);

describe('grpoStep: lp_old, replays and the reference', () => {
  test('numIterations replays the batch against lp_old taken before the first update, as the lp_old helper gives it', async () => {
    const start = randomAdapter();
    const auto = await learner({ numIterations: 2, samplerCorrection: null }, { adapter: copyAdapter(start) });
    const result = await grpoStep(auto, groups);
    expect(result.updates).toHaveLength(2);
    // the first pass is on-policy: ratio 1, so the loss is −Σ A·tokens / N and nothing clips
    const onPolicy = -result.advantages.reduce((a, adv, i) => a + adv * LENGTHS[i]!, 0) / TOKENS;
    expect(result.updates[0]!.loss).toBeCloseTo(onPolicy, 5);
    expect(result.updates[0]!.metrics['clip_ratio/region_mean']).toBe(0);
    // the replay sees the updated policy against the old log-probs: ratios ≠ 1
    expect(Math.abs(result.updates[1]!.loss - onPolicy)).toBeGreaterThan(1e-3);

    const given = await learner({ numIterations: 2, samplerCorrection: null }, { adapter: copyAdapter(start) });
    const old = await given.logprobs(groups);
    const replayed = await grpoStep(
      given,
      groups.map((s, i) => ({ ...s, oldLogprobs: Array.from(old[i]!) })),
    );
    replayed.updates.forEach((u, k) => expect(u.loss).toBeCloseTo(result.updates[k]!.loss, 5));
    const path = [...start.modules.keys()][0]!;
    const [x, y] = [auto.trainer.adapter.modules.get(path)!.b.data, given.trainer.adapter.modules.get(path)!.b.data];
    for (let i = 0; i < x.length; i++) expect(y[i]).toBeCloseTo(x[i]!, 5);
    await auto.release();
    await given.release();
  });

  test('β > 0: the reference is the adapter-free model; kl starts at 0 (B = 0) and grows as the adapter moves', async () => {
    const l = await learner({ beta: 0.05, samplerCorrection: null }, { lr: 3e-2 });
    const reference = await l.logprobs(groups, null);
    const policy = await l.logprobs(groups);
    policy.forEach((lp, i) => lp.forEach((v, t) => expect(v).toBeCloseTo(reference[i]![t]!, 5)));
    const first = await grpoStep(l, groups);
    expect(first.metrics['kl']).toBeCloseTo(0, 6);
    let last = first;
    for (let step = 0; step < 3; step++) last = await grpoStep(l, groups);
    expect(last.metrics['kl']).toBeGreaterThan(1e-4);
    const referenceAfter = await l.logprobs(groups, null);
    referenceAfter.forEach((lp, i) => lp.forEach((v, t) => expect(v).toBe(reference[i]![t]!)));
    await l.release();
  });

  test('--kl-metric: with β = 0 the KL is logged and grows, while the updates are exactly those of a run without it', async () => {
    const start = randomAdapter();
    const logged = await learner(
      { klMetric: true, samplerCorrection: null },
      { lr: 3e-2, adapter: copyAdapter(start) },
    );
    const plain = await learner({ samplerCorrection: null }, { lr: 3e-2, adapter: copyAdapter(start) });
    const kls: number[] = [];
    for (let step = 0; step < 3; step++) {
      const [a, b] = [await grpoStep(logged, groups), await grpoStep(plain, groups)];
      expect(a.updates[0]!.loss).toBe(b.updates[0]!.loss);
      expect(b.metrics['kl']).toBeUndefined();
      kls.push(a.metrics['kl']!);
    }
    // The random starting adapter is already away from the adapter-free reference, and moves further.
    expect(kls[0]).toBeGreaterThan(1e-4);
    expect(kls[2]).toBeGreaterThan(kls[0]!);
    const path = [...start.modules.keys()][0]!;
    expect(logged.trainer.adapter.modules.get(path)!.b.data).toEqual(plain.trainer.adapter.modules.get(path)!.b.data);
    await logged.release();
    await plain.release();
  });
});

describe('grpoStep: micro-batches', () => {
  test.each([
    ['dapo', {}],
    ['grpo', { lossType: 'grpo' }],
    ['dr_grpo', { lossType: 'dr_grpo', maxCompletionLength: 8 }],
  ] as const)('%s: micro-batches of 3 give the loss, metrics and update of one batch of 8', async (_label, options) => {
    const start = randomAdapter();
    const grpo = { ...options, samplerCorrection: { level: 'token', mode: 'truncate' }, beta: 0.02 } as const;
    const whole = await learner(grpo, { adapter: copyAdapter(start) });
    const split = await learner(grpo, { adapter: copyAdapter(start), microBatchSize: 3 });
    const samples = await sampledBy(whole, groups);
    const [a, b] = [await grpoStep(whole, samples), await grpoStep(split, samples)];
    expect(b.updates[0]!.microBatches).toBe(3);
    for (const [name, value] of Object.entries(a.metrics)) expect(b.metrics[name], name).toBeCloseTo(value, 5);
    await whole.release();
    await split.release();
  });
});

describe('grpoStep: metrics', () => {
  test('every documented metric is reported; sampling metrics measure the sampler’s offset', async () => {
    const l = await learner({ beta: 0.01, samplerCorrection: { level: 'token', mode: 'truncate' } });
    // the sampler's log-probs sit 0.1 below the trainer's on every token: d = 0.1, w = e^0.1
    const samples = (await sampledBy(l, groups)).map((s) => ({
      ...s,
      samplerLogprobs: s.samplerLogprobs!.map((v) => v - 0.1),
    }));
    const { metrics } = await grpoStep(l, samples);
    expect(Object.keys(metrics).sort()).toEqual([...METRIC_SOURCES.graph, ...METRIC_SOURCES.host].sort());
    expect(metrics['sampling/sampling_logp_difference/mean']).toBeCloseTo(0.1, 5);
    expect(metrics['sampling/sampling_logp_difference/max']).toBeCloseTo(0.1, 5);
    for (const k of ['min', 'mean', 'max'])
      expect(metrics[`sampling/importance_sampling_ratio/${k}`]).toBeCloseTo(Math.exp(0.1), 5);
    expect(metrics['completions/mean_length']).toBeCloseTo(TOKENS / 8, 12);
    expect(metrics['reward']).toBeCloseTo(3 / 8, 12);
    await l.release();
  });

  test('sequence-level correction weights are exp(Σ d) per sequence', async () => {
    const l = await learner({ samplerCorrection: { level: 'sequence', mode: 'mask' } });
    const samples = (await sampledBy(l, groups)).map((s) => ({
      ...s,
      samplerLogprobs: s.samplerLogprobs!.map((v) => v - 0.1),
    }));
    const { metrics } = await grpoStep(l, samples);
    expect(metrics['sampling/importance_sampling_ratio/min']).toBeCloseTo(Math.exp(0.4), 4);
    expect(metrics['sampling/importance_sampling_ratio/max']).toBeCloseTo(Math.exp(0.5), 4);
    expect(metrics['sampling/importance_sampling_ratio/mean']).toBeCloseTo(
      (5 * Math.exp(0.4) + 3 * Math.exp(0.5)) / 8,
      4,
    );
    await l.release();
  });

  test('entropy is the policy’s next-token entropy at the sampling temperature, averaged over trained tokens', async () => {
    const adapter = randomAdapter();
    const l = await learner({ samplerCorrection: null }, { adapter: copyAdapter(adapter) });
    const { metrics } = await grpoStep(l, groups);
    const runner = await ModelRunner.create(config, weights, { lora, runtime: { intraOpNumThreads: 1 } });
    const sequences = groups.map((s) => [...s.promptIds, ...s.completionIds]);
    const logits = await runner.logits(sequences, adapter);
    const [, seq, vocab] = logits.dims as [number, number, number];
    let sum = 0;
    groups.forEach((s, b) => {
      for (let t = s.promptIds.length - 1; t < sequences[b]!.length - 1; t++) {
        const z = Array.from(logits.data.subarray((b * seq + t) * vocab, (b * seq + t + 1) * vocab), (v) => v / 0.9);
        const max = Math.max(...z);
        const e = z.map((v) => Math.exp(v - max));
        const total = e.reduce((x, y) => x + y, 0);
        sum -= e.reduce((acc, v) => acc + (v / total) * Math.log(v / total + 1e-300), 0);
      }
    });
    expect(metrics['entropy']).toBeCloseTo(sum / TOKENS, 4);
    await runner.release();
    await l.release();
  });
});

describe('grpoStep: masks', () => {
  test('env tokens and (optionally) truncated completions are not trained; truncation is counted', async () => {
    const samples = groups.map((s, i) => ({
      ...s,
      // two env tokens inside the first completion; the last one ran out of room
      ...(i === 0 ? { envMask: [1, 0, 0, 1] } : {}),
      ...(i === 7 ? { truncated: true } : {}),
    }));
    const keep = await learner({ samplerCorrection: null });
    const kept = await grpoStep(keep, samples);
    expect(kept.updates[0]!.tokens).toBe(TOKENS - 2);
    expect(Array.from(kept.updates[0]!.logprobs[0]!.slice(-4), (v) => v !== 0)).toEqual([true, false, false, true]);
    expect(kept.metrics['completions/clipped_ratio']).toBeCloseTo(1 / 8, 12);
    expect(kept.metrics['completions/mean_terminated_length']).toBeCloseTo((TOKENS - 4) / 7, 12);
    const drop = await learner({ samplerCorrection: null, maskTruncatedCompletions: true });
    const dropped = await grpoStep(drop, samples);
    expect(dropped.updates[0]!.tokens).toBe(TOKENS - 2 - 4);
    expect(dropped.updates[0]!.logprobs[7]!.every((v) => v === 0)).toBe(true);
    await keep.release();
    await drop.release();
  });
});

describe('grpoStep: bad input', () => {
  test('is refused with the sample and field named, before any update', async () => {
    const l = await learner({});
    const ok = await sampledBy(l, groups);
    await expect(grpoStep(l, [])).rejects.toThrow(/the batch is empty/);
    await expect(grpoStep(l, groups)).rejects.toThrow(
      /GRPO sample 0: samplerLogprobs are missing; the sampler correction needs them/,
    );
    await expect(
      grpoStep(
        l,
        ok.map((s, i) => (i === 2 ? { ...s, envMask: [1, 2, 1, 1, 1] } : s)),
      ),
    ).rejects.toThrow(/GRPO sample 2: envMask\[1\] is 2; must be 0 or 1/);
    await expect(
      grpoStep(
        l,
        ok.map((s, i) => (i === 1 ? { ...s, samplerLogprobs: [0] } : s)),
      ),
    ).rejects.toThrow(/GRPO sample 1: samplerLogprobs has 1 entries for 5 completion tokens/);
    await expect(
      grpoStep(
        l,
        ok.map((s, i) => (i === 3 ? { ...s, advantage: 1 } : s)),
      ),
    ).rejects.toThrow(/advantage is set on 1 of 8 samples; set it on all or none/);
    await expect(
      grpoStep(
        l,
        ok.map((s, i) => (i === 3 ? { ...s, completionIds: [] } : s)),
      ),
    ).rejects.toThrow(/GRPO sample 3: completionIds is empty/);
    expect(l.trainer.step).toBe(0);
    const given = await grpoStep(
      l,
      ok.map((s, i) => ({ ...s, advantage: i - 3.5 })),
    );
    expect(given.advantages).toEqual(ok.map((_, i) => i - 3.5));
    expect(l.trainer.step).toBe(1);
    await l.release();
  });
});
