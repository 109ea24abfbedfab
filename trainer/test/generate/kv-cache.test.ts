import { afterAll, describe, expect, it } from 'vitest';
import { kvAdapterFeeds } from '../../src/generate/adapter-feeds.js';
import { KvCache } from '../../src/generate/kv-cache.js';
import { KvModel } from '../../src/generate/kv-model.js';
import { initLoraAdapter } from '../../src/lora/adapter.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import { ModelRunner } from '../../src/graph/graph-runner.js';
import type { Architecture } from '../../src/model/config.js';
import { tinyModel, withRandomB } from '../support/tiny-models.js';

const release: (() => Promise<void>)[] = [];
afterAll(async () => Promise.all(release.map((r) => r())));

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

describe.each<Architecture>(['llama', 'qwen2', 'qwen3'])('KV-cache forward, %s', (architecture) => {
  it('prefill then token-by-token decode gives the full forward logits, batched rows of different lengths, with and without an adapter', async () => {
    const { config, weights } = tinyModel({ architecture, seed: 3 });
    const lora = makeLoraConfig({ rank: 4, alpha: 8, targets: ['q_proj', 'v_proj', 'down_proj'] });
    const adapter = withRandomB(initLoraAdapter(config, lora, 1), 2);
    const full = await ModelRunner.create(config, weights, { lora });
    const kv = await KvModel.create(config, weights);
    release.push(
      () => full.release(),
      () => kv.release(),
    );
    const sequences = [
      [72, 101, 108, 108, 111, 32, 119, 111, 114],
      [1, 2, 3, 4, 5],
    ];
    const prefill = [4, 2];
    for (const withAdapter of [false, true]) {
      const reference = await full.logits(sequences, withAdapter ? adapter : undefined);
      const [, seq, vocab] = reference.dims as [number, number, number];
      const feeds = kvAdapterFeeds(config, withAdapter ? adapter : undefined);
      const caches = sequences.map(() => new KvCache(config, 2));
      const got = sequences.map(() => [] as Float32Array[]);
      // Prefill both prompts in one step, logits at every prompt position.
      const first = await kv.step(
        sequences.map((s, i) => ({
          cache: caches[i]!,
          tokens: s.slice(0, prefill[i]),
          logitsAt: [...Array(prefill[i]).keys()],
        })),
        feeds,
      );
      first.forEach((rows, i) => got[i]!.push(...rows));
      // Decode one token per row per step; the shorter row leaves when done.
      for (let t = 0; ; t++) {
        const active = sequences.map((s, i) => ({ s, i, at: prefill[i]! + t })).filter(({ s, at }) => at < s.length);
        if (active.length === 0) break;
        const out = await kv.step(
          active.map(({ s, i, at }) => ({ cache: caches[i]!, tokens: [s[at]!] })),
          feeds,
        );
        active.forEach(({ i }, k) => got[i]!.push(out[k]![0]!));
      }
      let worst = 0;
      sequences.forEach((s, i) => {
        s.forEach((_, t) => {
          const row = reference.data.subarray((i * seq + t) * vocab, (i * seq + t + 1) * vocab);
          worst = Math.max(worst, maxDiff(got[i]![t]!, row));
        });
      });
      console.log(
        `${architecture}${withAdapter ? ' + adapter' : ''}: max |KV − full| logit diff ${worst.toExponential(2)}`,
      );
      expect(worst).toBeLessThan(1e-4);
    }
  });
});

describe('KV-cache decode batches', () => {
  it('keep matching the full forward when batches regroup, interleave and outgrow their padded past', async () => {
    const { config, weights } = tinyModel({ architecture: 'llama', seed: 5 });
    const full = await ModelRunner.create(config, weights, { lora: makeLoraConfig({ rank: 1 }) });
    const kv = await KvModel.create(config, weights);
    release.push(
      () => full.release(),
      () => kv.release(),
    );
    // 90 positions: decode runs past the first padded past's headroom, so it is rebuilt larger.
    const sequences = [0, 1, 2].map((k) => Array.from({ length: 90 }, (_, t) => (t * 37 + k * 11) % 250));
    const reference = await full.logits(sequences);
    const [, seq, vocab] = reference.dims as [number, number, number];
    const feeds = kvAdapterFeeds(config);
    const caches = sequences.map(() => new KvCache(config, 4));
    await kv.step(
      sequences.map((s, i) => ({ cache: caches[i]!, tokens: s.slice(0, 2) })),
      feeds,
    );
    // Mostly the same two groups in turn (each keeps its padded past), sometimes regrouped: a cache
    // stepped in another group must not be served stale from a batch it used to belong to.
    const groupings = [
      [[0, 1], [2]],
      [[0, 1], [2]],
      [[1], [2, 0]],
    ];
    let worst = 0;
    for (let at = 2; at < 90; at++) {
      for (const group of groupings[at % 3]!) {
        const out = await kv.step(
          group.map((i) => ({ cache: caches[i]!, tokens: [sequences[i]![at]!] })),
          feeds,
        );
        group.forEach((i, k) => {
          const row = reference.data.subarray((i * seq + at) * vocab, (i * seq + at + 1) * vocab);
          worst = Math.max(worst, maxDiff(out[k]![0]!, row));
        });
      }
    }
    expect(caches.map((c) => c.length)).toEqual([90, 90, 90]);
    expect(worst).toBeLessThan(1e-4);
  });
});
