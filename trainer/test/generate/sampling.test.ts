import { afterAll, describe, expect, it } from 'vitest';
import { samplingParams } from '../../src/generate/sampling-params.js';
import { sftLoss } from '../../src/train/loss.js';
import { LoraTrainer } from '../../src/train/trainer.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import { tinyEngine } from './engine-support.js';

const setup = tinyEngine({ seed: 5 });
afterAll(async () => (await setup).model.release());

describe('sampling', () => {
  it('same seed gives the same tokens; another seed differs', async () => {
    const { engine, base } = await setup;
    const params = samplingParams({
      temperature: 1.5,
      topP: 0.95,
      topK: 50,
      minP: 0.01,
      repetitionPenalty: 1.1,
      seed: 7,
      maxTokens: 12,
      ignoreEos: true,
    });
    const run = (seed: number) =>
      engine.generate({ prompt: [72, 105], params: { ...params, seed }, adapterFeeds: base });
    const [a, b, c] = await Promise.all([run(7), run(7), run(8)]);
    expect(a.tokenIds).toEqual(b.tokenIds);
    // Same tokens; logprobs agree to float32 noise (rows of one batch may round differently, as in vLLM).
    a.logprobs.forEach((lp, i) => expect(lp).toBeCloseTo(b.logprobs[i]!, 5));
    expect(a.tokenIds).not.toEqual(c.tokenIds);
    expect(a.finishReason).toBe('length');
    expect(a.tokenIds).toHaveLength(12);
  });

  it('top-k 1 is greedy; top_logprobs lists the best tokens, the greedy one first', async () => {
    const { engine, base } = await setup;
    const greedy = await engine.generate({
      prompt: [1, 2, 3],
      params: samplingParams({ temperature: 0, maxTokens: 5, ignoreEos: true, topLogprobs: 3 }),
      adapterFeeds: base,
    });
    const topK1 = await engine.generate({
      prompt: [1, 2, 3],
      params: samplingParams({ temperature: 2, topK: 1, seed: 1, maxTokens: 5, ignoreEos: true }),
      adapterFeeds: base,
    });
    expect(topK1.tokenIds).toEqual(greedy.tokenIds);
    greedy.topLogprobs.forEach((top, i) => {
      expect(top).toHaveLength(3);
      expect(top[0]!.id).toBe(greedy.tokenIds[i]);
      expect(top[0]!.logprob).toBeGreaterThanOrEqual(top[1]!.logprob);
    });
  });

  it('stops on a stop token id (kept in token ids), on a stop string (cut from the text), and on max tokens', async () => {
    const { engine, base } = await setup;
    const free = await engine.generate({
      prompt: [65, 66],
      params: samplingParams({ temperature: 0, maxTokens: 8, ignoreEos: true }),
      adapterFeeds: base,
    });
    const stopId = free.tokenIds[2]!;
    const byId = await engine.generate({
      prompt: [65, 66],
      params: samplingParams({ temperature: 0, maxTokens: 8, ignoreEos: true, stopTokenIds: [stopId] }),
      adapterFeeds: base,
    });
    expect(byId.tokenIds).toEqual(free.tokenIds.slice(0, free.tokenIds.indexOf(stopId) + 1));
    expect(byId).toMatchObject({ finishReason: 'stop', stopReason: stopId });
    const stop = free.text.slice(3, 5);
    const byText = await engine.generate({
      prompt: [65, 66],
      params: samplingParams({ temperature: 0, maxTokens: 8, ignoreEos: true, stop: [stop] }),
      adapterFeeds: base,
    });
    expect(byText.finishReason).toBe('stop');
    expect(byText.text).toBe(free.text.slice(0, free.text.indexOf(stop)));
    expect(free.finishReason).toBe('length');
  });

  it("with processed_logprobs, each sampled token's logprob equals the training graph's log-prob at the sampling temperature; raw ones are the model's (T = 1)", async () => {
    const { config, weights } = await setup;
    const temperature = 0.8;
    const prompt = [72, 101, 108, 108, 111];
    const params = samplingParams({ temperature, seed: 3, maxTokens: 10, ignoreEos: true });
    const processed = await tinyEngine({ seed: 5 }, { logprobsMode: 'processed_logprobs' });
    const out = await processed.engine.generate({ prompt, params, adapterFeeds: processed.base });
    await processed.model.release();
    const raw = await (await setup).engine.generate({ prompt, params, adapterFeeds: (await setup).base });
    expect(raw.tokenIds).toEqual(out.tokenIds);
    const tokens = [...prompt, ...out.tokenIds];
    const mask = tokens.map((_, i) => (i >= prompt.length ? 1 : 0));
    const scored = async (t: number) => {
      const trainer = await LoraTrainer.create({
        config,
        weights,
        lora: makeLoraConfig({ rank: 2 }),
        loss: sftLoss,
        temperature: t,
        schedule: { lr: 0 },
      });
      const { logprobs } = await trainer.accumulate([{ tokens, mask }]);
      await trainer.release();
      return Array.from(logprobs[0]!.slice(prompt.length));
    };
    const gap = (a: number[], b: number[]) => Math.max(...a.map((lp, i) => Math.abs(lp - b[i]!)));
    const atTemperature = await scored(temperature);
    const diff = gap(atTemperature, out.logprobs);
    console.log(
      `sampler vs training graph: max |Δ logprob| = ${diff.toExponential(2)} over ${atTemperature.length} tokens`,
    );
    expect(diff).toBeLessThan(1e-4);
    expect(gap(await scored(1), raw.logprobs)).toBeLessThan(1e-4);
    expect(gap(atTemperature, raw.logprobs)).toBeGreaterThan(1e-2);
  });
});
