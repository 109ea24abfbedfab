import { describe, expect, it } from 'vitest';
import { KvCache } from './kv-cache.js';
import { PrefixCache } from './prefix-cache.js';

const shape = { numLayers: 2, numKvHeads: 2, headDim: 3 };
const base = {};

/** A cache holding the keys and values of `tokens`, each value encoding (layer, head, token id, lane). */
function cacheOf(tokens: readonly number[]): KvCache {
  const cache = new KvCache(shape, 1);
  const { numKvHeads: heads, headDim: d } = shape;
  const present = (layer: number) => {
    const key = new Float32Array(heads * tokens.length * d);
    for (let h = 0; h < heads; h++)
      tokens.forEach((id, t) =>
        key.fill(layer * 1e6 + h * 1e5 + id * 10, (h * tokens.length + t) * d, (h * tokens.length + t + 1) * d),
      );
    return { key, value: key.map((x) => -x) };
  };
  cache.append(present, 0, tokens.length, tokens.length);
  return cache;
}

/** The tokens a hit's blocks hold, read back through a fresh cache (head 0, layer 0, keys). */
function tokensOf(cache: PrefixCache, blocks: Float32Array[]): number[] {
  const rebuilt = new KvCache(shape, 1);
  for (const block of blocks) rebuilt.appendBlock(block, cache.blockTokens);
  const keys = new Float32Array(shape.numKvHeads * rebuilt.length * shape.headDim);
  rebuilt.copyInto(0, keys, new Float32Array(keys.length), 0, rebuilt.length);
  return Array.from({ length: rebuilt.length }, (_, t) => keys[t * shape.headDim]! / 10);
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe('PrefixCache', () => {
  it('finds the longest cached run of whole blocks, and its keys and values come back in order', () => {
    const cache = new PrefixCache(shape, { maxTokens: 64, blockTokens: 4 });
    const tokens = range(1, 10);
    cache.insert(base, tokens, cacheOf(tokens));
    expect(cache.cachedTokens).toBe(8);
    const extended = [...tokens, 50, 51, 52];
    const hit = cache.lookup(base, extended);
    expect(hit.tokens).toBe(8);
    expect(tokensOf(cache, hit.blocks)).toEqual(tokens.slice(0, 8));
    // Diverging inside the second block: only the first is shared.
    expect(cache.lookup(base, [1, 2, 3, 4, 5, 99, 7, 8, 9]).tokens).toBe(4);
    expect(cache.lookup(base, [0, ...tokens]).tokens).toBe(0);
    // The limit keeps tokens to prefill: 8 allowed, 7 are not a whole second block.
    expect(cache.lookup(base, tokens, 7).tokens).toBe(4);
    expect(cache.stats).toMatchObject({ lookups: 4, hits: 3, hitTokens: 16, queryTokens: 13 + 9 + 11 + 10 });
  });

  it('keeps what each owner computed apart: another adapter, or a reloaded one, misses', () => {
    const cache = new PrefixCache(shape, { maxTokens: 64, blockTokens: 4 });
    const tokens = range(1, 8);
    const adapter = {};
    cache.insert(adapter, tokens, cacheOf(tokens));
    expect(cache.lookup(adapter, tokens).tokens).toBe(8);
    expect(cache.lookup(base, tokens).tokens).toBe(0);
    expect(cache.lookup({}, tokens).tokens).toBe(0);
  });

  it('stays within its budget, dropping the least recently used blocks from the end of their prefix', () => {
    const cache = new PrefixCache(shape, { maxTokens: 16, blockTokens: 4 });
    const a = range(100, 8);
    const b = range(200, 8);
    const c = range(300, 8);
    cache.insert(base, a, cacheOf(a));
    cache.insert(base, b, cacheOf(b));
    expect(cache.lookup(base, a).tokens).toBe(8);
    // Full: c pushes out b (used least recently), a stays.
    cache.insert(base, c, cacheOf(c));
    expect(cache.cachedTokens).toBe(16);
    expect(cache.stats.evictedBlocks).toBe(2);
    expect(cache.lookup(base, b).tokens).toBe(0);
    expect(cache.lookup(base, a).tokens).toBe(8);
    expect(cache.lookup(base, c).tokens).toBe(8);
    // One more block: the oldest prefix (a) loses its last block first, keeping its first.
    const d = range(400, 4);
    cache.insert(base, d, cacheOf(d));
    expect(cache.lookup(base, a).tokens).toBe(4);
    expect(cache.cachedTokens).toBe(16);
  });

  it('caches at most the budget of a prefix longer than the budget, its first blocks', () => {
    const cache = new PrefixCache(shape, { maxTokens: 8, blockTokens: 4 });
    const long = range(1, 20);
    cache.insert(base, long, cacheOf(long));
    expect(cache.cachedTokens).toBe(8);
    const hit = cache.lookup(base, long);
    expect(tokensOf(cache, hit.blocks)).toEqual(long.slice(0, 8));
  });

  it('a zero budget holds nothing', () => {
    const cache = new PrefixCache(shape, { maxTokens: 3, blockTokens: 4 });
    expect(cache.capacityBlocks).toBe(0);
    cache.insert(base, range(1, 8), cacheOf(range(1, 8)));
    expect(cache.cachedTokens).toBe(0);
  });
});
