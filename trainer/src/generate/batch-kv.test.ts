import { describe, expect, it } from 'vitest';
import { BatchKv } from './batch-kv.js';
import { KvCache } from './kv-cache.js';

const shape = { numLayers: 2, numKvHeads: 2, headDim: 3 };

/** A cache holding `length` positions whose values encode (layer, head, position). */
function filled(length: number): KvCache {
  const cache = new KvCache(shape, 1);
  const present = (layer: number) => {
    const key = Float32Array.from({ length: shape.numKvHeads * length * shape.headDim }, (_, i) => layer * 1000 + i);
    return { key, value: key.map((x) => -x) };
  };
  cache.append(present, 0, length, length);
  return cache;
}

describe('BatchKv', () => {
  it('lays each row out at the padded capacity, with room to decode', () => {
    const caches = [filled(3), filled(1)];
    const mirror = BatchKv.build(shape, caches, 1);
    expect(mirror.capacity % 64).toBe(0);
    expect(mirror.capacity).toBeGreaterThanOrEqual(3 + 64);
    const { capacity } = mirror;
    // Row 1, head 1, position 0 of layer 1: the cache's own (head 1, position 0) values.
    const at = ((1 * 2 + 1) * capacity + 0) * 3;
    expect([...mirror.keys[1]!.subarray(at, at + 3)]).toEqual([1003, 1004, 1005]);
    expect([...mirror.values[1]!.subarray(at, at + 3)]).toEqual([-1003, -1004, -1005]);
  });

  it('serves only the same caches, in order, at the lengths it holds, while they fit', () => {
    const [a, b] = [filled(2), filled(2)];
    const mirror = BatchKv.build(shape, [a, b], 1);
    expect(mirror.serves([a, b], 1)).toBe(true);
    expect(mirror.serves([b, a], 1)).toBe(false);
    expect(mirror.serves([a], 1)).toBe(false);
    expect(mirror.serves([a, b], mirror.capacity)).toBe(false);
    // A step taken elsewhere grows the cache without the mirror: it is stale from then on.
    a.append(() => ({ key: new Float32Array(6), value: new Float32Array(6) }), 0, 1, 1);
    expect(mirror.serves([a, b], 1)).toBe(false);
  });

  it('catches up with what a step appended to each row’s cache, where each row ends, and then serves the grown caches', () => {
    const [a, b] = [filled(2), filled(1)];
    const mirror = BatchKv.build(shape, [a, b], 1);
    const present = () => ({
      key: Float32Array.from({ length: 2 * 2 * 3 }, (_, i) => 500 + i),
      value: new Float32Array(12),
    });
    [a, b].forEach((cache, row) => {
      cache.append(present, row, 1, 1);
      mirror.catchUp(row);
    });
    expect(mirror.serves([a, b], 1)).toBe(true);
    // Row 1 head 0 gets present's row 1 head 0 = elements 6..8, at position 1; position 0 is untouched.
    const at = ((1 * 2 + 0) * mirror.capacity + 1) * 3;
    expect([...mirror.keys[0]!.subarray(at, at + 3)]).toEqual([506, 507, 508]);
    expect([...mirror.keys[0]!.subarray(at - 3, at)]).toEqual([0, 1, 2]);
  });

  it('reuses a retired mirror’s buffers when they are large enough', () => {
    const first = BatchKv.build(shape, [filled(2), filled(2)], 1);
    const second = BatchKv.build(shape, [filled(3)], 1, first);
    expect(second.keys[0]!.buffer).toBe(first.keys[0]!.buffer);
    const third = BatchKv.build(shape, [filled(3), filled(3), filled(3)], 1, second);
    expect(third.keys[0]!.buffer).not.toBe(second.keys[0]!.buffer);
  });
});
