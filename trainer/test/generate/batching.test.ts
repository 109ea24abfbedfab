import { afterAll, describe, expect, it } from 'vitest';
import { QueueFullError } from '../../src/generate/errors.js';
import { samplingParams } from '../../src/generate/sampling-params.js';
import type { GenerationResult } from '../../src/generate/sequence.js';
import { tinyEngine } from './engine-support.js';

const setup = tinyEngine({ architecture: 'llama', seed: 9 }, { maxBatch: 3, maxWaiting: 4 });
afterAll(async () => (await setup).model.release());

const prompts = [[72, 105], [1, 2, 3, 4, 5, 6, 7], [50], [200, 100, 50, 25], [9, 8, 7, 6, 5, 4, 3, 2, 1]];

describe('continuous batching', () => {
  it('concurrent requests of different prompt lengths and lengths give the same greedy tokens as one at a time', async () => {
    const { engine, base } = await setup;
    const params = (i: number) =>
      samplingParams({ temperature: 0, maxTokens: 3 + 2 * i, ignoreEos: true, topLogprobs: 2 });
    const alone: GenerationResult[] = [];
    for (const [i, prompt] of prompts.entries())
      alone.push(await engine.generate({ prompt, params: params(i), adapterFeeds: base }));
    // Five requests, batch of three: two wait, then join as the short ones leave.
    const together = await Promise.all(
      prompts.map((prompt, i) => engine.generate({ prompt, params: params(i), adapterFeeds: base })),
    );
    together.forEach((r, i) => {
      expect(r.tokenIds).toEqual(alone[i]!.tokenIds);
      r.logprobs.forEach((lp, t) => expect(lp).toBeCloseTo(alone[i]!.logprobs[t]!, 4));
    });
    expect(engine.stats.lastBatchSize).toBeLessThanOrEqual(3);
  });

  it('refuses work beyond the batch plus the waiting queue with QueueFullError, and serves the rest', async () => {
    const { engine, base } = await setup;
    const params = samplingParams({ temperature: 0, maxTokens: 2, ignoreEos: true });
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => engine.generate({ prompt: [1, 2], params, adapterFeeds: base })),
    );
    // Three fit the batch and four the queue; the eighth is refused at once.
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(7);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect(refused[0]!.reason).toBeInstanceOf(QueueFullError);
  });

  it('an aborted request finishes with reason abort and does not disturb the others', async () => {
    const { engine, base } = await setup;
    const controller = new AbortController();
    const params = samplingParams({ temperature: 0, maxTokens: 6, ignoreEos: true });
    const aborted = engine.generate({
      prompt: [3, 4],
      params,
      adapterFeeds: base,
      signal: controller.signal,
      onToken: () => controller.abort(),
    });
    const other = engine.generate({ prompt: [3, 4], params, adapterFeeds: base });
    expect((await aborted).finishReason).toBe('abort');
    expect((await aborted).tokenIds.length).toBeLessThan(6);
    expect((await other).tokenIds).toHaveLength(6);
  });
});
