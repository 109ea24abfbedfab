import { afterAll, describe, expect, it } from 'vitest';
import { kvAdapterFeeds } from '../../src/generate/adapter-feeds.js';
import { GenerationEngine, type GenerateRequest } from '../../src/generate/engine.js';
import { samplingParams } from '../../src/generate/sampling-params.js';
import type { GenerationResult } from '../../src/generate/sequence.js';
import { initLoraAdapter } from '../../src/lora/adapter.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import { createRng } from '../../src/model/random.js';
import { withRandomB } from '../support/tiny-models.js';
import { tinyEngine } from './engine-support.js';

// One model, two engines: the default one (prefix cache on, 16-token blocks) and one without it.
const setup = tinyEngine({ architecture: 'qwen2', seed: 4 }).then((tiny) => {
  const decode = (ids: readonly number[]) => tiny.tokenizer.decode(ids, { skipSpecialTokens: true });
  const uncached = new GenerationEngine(tiny.model, {
    eosTokenIds: tiny.config.eosTokenIds,
    decode,
    prefixCacheTokens: 0,
  });
  const engineWith = (prefixCacheTokens: number) =>
    new GenerationEngine(tiny.model, { eosTokenIds: tiny.config.eosTokenIds, decode, prefixCacheTokens });
  return { ...tiny, uncached, engineWith };
});
afterAll(async () => (await setup).model.release());

const BLOCK = 16;
const params = samplingParams({ temperature: 1, seed: 11, maxTokens: 12, ignoreEos: true, topLogprobs: 2 });

function randomIds(count: number, seed: number): number[] {
  const rng = createRng(seed);
  return Array.from({ length: count }, () => Math.floor(rng.next() * 256));
}

/** Same tokens, and the same logprobs (sampled and top alternatives) within 1e-5. */
function expectSameSamples(got: GenerationResult, want: GenerationResult): void {
  expect(got.tokenIds).toEqual(want.tokenIds);
  let worst = 0;
  got.logprobs.forEach((lp, t) => (worst = Math.max(worst, Math.abs(lp - want.logprobs[t]!))));
  got.topLogprobs.forEach((top, t) =>
    top.forEach((alt, k) => {
      expect(alt.id).toBe(want.topLogprobs[t]![k]!.id);
      worst = Math.max(worst, Math.abs(alt.logprob - want.topLogprobs[t]![k]!.logprob));
    }),
  );
  expect(worst).toBeLessThanOrEqual(1e-5);
}

/** Runs the same request on a cached engine and on the uncached one (one after the other); both results. */
async function both(engine: GenerationEngine, request: Omit<GenerateRequest, 'params'>) {
  const { uncached } = await setup;
  const cached = await engine.generate({ ...request, params });
  const plain = await uncached.generate({ ...request, params });
  expect(plain.cachedTokens).toBe(0);
  expectSameSamples(cached, plain);
  return cached;
}

describe('prefix cache in the generation engine', () => {
  it('a 3-turn conversation, each prompt extending the last prompt + completion, prefills only the new tokens and samples exactly as without it', async () => {
    const { engine, base } = await setup;
    let prompt = randomIds(40, 1);
    let held = 0;
    for (let turn = 0; turn < 3; turn++) {
      const prefilledBefore = engine.stats.promptTokens;
      const result = await both(engine, { prompt, adapterFeeds: base });
      // Turn 1 finds nothing; later turns reuse every whole block of what the last turn computed
      // (its prompt and completion, less the last sampled token, which was never fed back).
      const expected = turn === 0 ? 0 : Math.floor(Math.min(held, prompt.length - 1) / BLOCK) * BLOCK;
      expect(result.cachedTokens).toBe(expected);
      if (turn > 0) expect(expected).toBeGreaterThan(prompt.length - 40);
      expect(engine.stats.promptTokens - prefilledBefore).toBe(prompt.length - expected);
      held = prompt.length + result.tokenIds.length - 1;
      prompt = [...prompt, ...result.tokenIds, ...randomIds(20, 10 + turn)];
    }
    expect(engine.prefixCache!.stats.hits).toBe(2);
  });

  it('reuses a partly shared prefix, mixes hits and misses in one prefill, and prefills all of a prompt it must score', async () => {
    const { engine, base, uncached } = await setup;
    const shared = randomIds(40, 20);
    await both(engine, { prompt: shared, adapterFeeds: base });
    // Diverges at token 36: the first two blocks are shared.
    const diverging = [...shared.slice(0, 36), 7, 7, 7, 7, 7];
    const fresh = randomIds(30, 21);
    const [hit, miss] = await Promise.all(
      [diverging, fresh].map((prompt) => engine.generate({ prompt, params, adapterFeeds: base })),
    );
    expect(hit!.cachedTokens).toBe(2 * BLOCK);
    expect(miss!.cachedTokens).toBe(0);
    expectSameSamples(hit!, await uncached.generate({ prompt: diverging, params, adapterFeeds: base }));
    expectSameSamples(miss!, await uncached.generate({ prompt: fresh, params, adapterFeeds: base }));
    const scored = await engine.generate({ prompt: shared, params, adapterFeeds: base, promptLogprobs: 1 });
    expect(scored.cachedTokens).toBe(0);
    expect(scored.promptLogprobs).toHaveLength(shared.length);
  });

  it('under a two-block budget evicts the least recently used prefix and still samples exactly', async () => {
    const { base, engineWith } = await setup;
    const engine = engineWith(2 * BLOCK);
    const a = randomIds(40, 30);
    const b = randomIds(40, 31);
    const first = await both(engine, { prompt: a, adapterFeeds: base });
    expect((await both(engine, { prompt: a, adapterFeeds: base })).cachedTokens).toBe(2 * BLOCK);
    await both(engine, { prompt: b, adapterFeeds: base });
    expect(engine.prefixCache!.stats.evictedBlocks).toBeGreaterThanOrEqual(2);
    expect(engine.prefixCache!.cachedTokens).toBeLessThanOrEqual(2 * BLOCK);
    const again = await both(engine, { prompt: a, adapterFeeds: base });
    expect(again.cachedTokens).toBe(0);
    expectSameSamples(again, first);
  });

  it('never reuses keys and values across adapters, nor those of an adapter replaced under the same name', async () => {
    const { config, engine, base } = await setup;
    const lora = makeLoraConfig({ rank: 4, alpha: 8, targets: ['q_proj', 'k_proj', 'v_proj', 'up_proj'] });
    const adapter = kvAdapterFeeds(config, withRandomB(initLoraAdapter(config, lora, 1), 2));
    const replaced = kvAdapterFeeds(config, withRandomB(initLoraAdapter(config, lora, 1), 3));
    const prompt = randomIds(40, 40);
    const onBase = await both(engine, { prompt, adapterFeeds: base });
    const first = await both(engine, { prompt, adapterFeeds: adapter });
    expect(first.cachedTokens).toBe(0);
    expect(first.logprobs).not.toEqual(onBase.logprobs);
    expect((await both(engine, { prompt, adapterFeeds: adapter })).cachedTokens).toBe(2 * BLOCK);
    const afterReload = await both(engine, { prompt, adapterFeeds: replaced });
    expect(afterReload.cachedTokens).toBe(0);
    expect(afterReload.logprobs).not.toEqual(first.logprobs);
  });
});
