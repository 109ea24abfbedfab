import type { ModelConfig } from '../model/config.js';

/**
 * One sequence's cached keys and values on the host, per layer [kvHeads, capacity, headDim],
 * growing by doubling. Kept per sequence (not per batch) so sequences can join and leave a batch
 * between any two steps; the batch's padded past is assembled from these each step.
 */
export class KvCache {
  private keys: Float32Array[];
  private values: Float32Array[];
  private capacity: number;
  length = 0;

  constructor(
    readonly config: Pick<ModelConfig, 'numLayers' | 'numKvHeads' | 'headDim'>,
    initialCapacity = 16,
  ) {
    this.capacity = Math.max(1, initialCapacity);
    const size = config.numKvHeads * this.capacity * config.headDim;
    this.keys = Array.from({ length: config.numLayers }, () => new Float32Array(size));
    this.values = Array.from({ length: config.numLayers }, () => new Float32Array(size));
  }

  /**
   * Appends `count` positions of a present tensor [batch, kvHeads, seq, d] (row `row`) for every
   * layer; `present(layer)` returns that layer's key and value outputs.
   */
  append(
    present: (layer: number) => { key: Float32Array; value: Float32Array },
    row: number,
    seq: number,
    count: number,
  ): void {
    this.reserve(this.length + count);
    const { numKvHeads: heads, headDim: d } = this.config;
    for (let layer = 0; layer < this.config.numLayers; layer++) {
      const { key, value } = present(layer);
      for (let h = 0; h < heads; h++) {
        const from = (row * heads + h) * seq * d;
        const to = (h * this.capacity + this.length) * d;
        this.keys[layer]!.set(key.subarray(from, from + count * d), to);
        this.values[layer]!.set(value.subarray(from, from + count * d), to);
      }
    }
    this.length += count;
  }

  /**
   * Positions [start, start + count) of every layer as one block: per layer the keys, then the
   * values, each [kvHeads, count, d] (the layout `appendBlock` reads). A prefix cache keeps these.
   */
  readBlock(start: number, count: number): Float32Array {
    const { numLayers, numKvHeads: heads, headDim: d } = this.config;
    const span = heads * count * d;
    const block = new Float32Array(numLayers * 2 * span);
    for (let layer = 0; layer < numLayers; layer++) {
      for (let h = 0; h < heads; h++) {
        const from = (h * this.capacity + start) * d;
        block.set(this.keys[layer]!.subarray(from, from + count * d), 2 * layer * span + h * count * d);
        block.set(this.values[layer]!.subarray(from, from + count * d), (2 * layer + 1) * span + h * count * d);
      }
    }
    return block;
  }

  /** Appends `count` positions read from a block of `readBlock`'s layout. */
  appendBlock(block: Float32Array, count: number): void {
    const span = this.config.numKvHeads * count * this.config.headDim;
    // A block is a one-row present tensor [1, kvHeads, count, d] per layer.
    this.append(
      (layer) => ({
        key: block.subarray(2 * layer * span, (2 * layer + 1) * span),
        value: block.subarray((2 * layer + 1) * span, (2 * layer + 2) * span),
      }),
      0,
      count,
      count,
    );
  }

  /**
   * Copies positions [start, length) of this cache into row `row` of a padded past
   * [batch, kvHeads, past, d] for one layer, at the same positions.
   */
  copyInto(layer: number, keyOut: Float32Array, valueOut: Float32Array, row: number, past: number, start = 0): void {
    const { numKvHeads: heads, headDim: d } = this.config;
    for (let h = 0; h < heads; h++) {
      const from = h * this.capacity * d;
      const to = (row * heads + h) * past * d;
      keyOut.set(this.keys[layer]!.subarray(from + start * d, from + this.length * d), to + start * d);
      valueOut.set(this.values[layer]!.subarray(from + start * d, from + this.length * d), to + start * d);
    }
  }

  private reserve(needed: number): void {
    if (needed <= this.capacity) return;
    let capacity = this.capacity;
    while (capacity < needed) capacity *= 2;
    const { numKvHeads: heads, headDim: d } = this.config;
    const grow = (old: Float32Array) => {
      const next = new Float32Array(heads * capacity * d);
      for (let h = 0; h < heads; h++)
        next.set(old.subarray(h * this.capacity * d, (h * this.capacity + this.length) * d), h * capacity * d);
      return next;
    };
    this.keys = this.keys.map(grow);
    this.values = this.values.map(grow);
    this.capacity = capacity;
  }
}
