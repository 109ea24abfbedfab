import type { ModelConfig } from '../model/config.js';
import type { KvCache } from './kv-cache.js';

type KvShape = Pick<ModelConfig, 'numLayers' | 'numKvHeads' | 'headDim'>;

/** Slack added past the longest row when a mirror is built: decode steps until the next rebuild. */
const HEADROOM = 64;
/** Capacities are multiples of this, so onnxruntime sees few distinct past lengths. */
const ROUND = 64;

/**
 * The padded past [rows, kvHeads, capacity, d] of one batch, per layer, kept between decode steps
 * while the batch's members stay the same. Each sequence's own KvCache stays the source of truth;
 * the mirror only saves re-assembling the padded past from them every step, which cost more than
 * the step itself at long contexts. It is fed whole (past = capacity) and the attention mask hides
 * each row's unused tail, so the feed shape does not change from one step to the next.
 */
export class BatchKv {
  readonly keys: Float32Array[];
  readonly values: Float32Array[];
  /** Each row's cache length the mirror holds: a cache stepped elsewhere no longer matches. */
  private readonly lengths: number[];

  private constructor(
    private readonly config: KvShape,
    private readonly caches: readonly KvCache[],
    readonly capacity: number,
    recycled?: BatchKv,
  ) {
    const size = caches.length * config.numKvHeads * capacity * config.headDim;
    // Stale values in a recycled buffer are finite keys and values of earlier rows: the mask hides them.
    const buffer = (old: Float32Array | undefined) =>
      old && old.buffer.byteLength >= size * 4 ? new Float32Array(old.buffer, 0, size) : new Float32Array(size);
    this.keys = Array.from({ length: config.numLayers }, (_, layer) => buffer(recycled?.keys[layer]));
    this.values = Array.from({ length: config.numLayers }, (_, layer) => buffer(recycled?.values[layer]));
    this.lengths = caches.map((c) => c.length);
    for (let layer = 0; layer < config.numLayers; layer++) {
      caches.forEach((c, row) => c.copyInto(layer, this.keys[layer]!, this.values[layer]!, row, capacity));
    }
  }

  /**
   * A mirror of these caches, sized for `newTokens` more positions per row and then some; it takes
   * over the buffers of `recycled` (a mirror no longer used) where they are large enough.
   */
  static build(config: KvShape, caches: readonly KvCache[], newTokens: number, recycled?: BatchKv): BatchKv {
    const longest = Math.max(...caches.map((c) => c.length));
    const capacity = Math.ceil((longest + Math.max(newTokens, HEADROOM)) / ROUND) * ROUND;
    return new BatchKv(config, caches, capacity, recycled);
  }

  /** Whether this mirror holds exactly these caches, in this order, with room for `newTokens` each. */
  serves(caches: readonly KvCache[], newTokens: number): boolean {
    if (caches.length !== this.caches.length) return false;
    return caches.every(
      (c, i) => c === this.caches[i] && c.length === this.lengths[i] && c.length + newTokens <= this.capacity,
    );
  }

  /** Takes layer `layer`'s buffers back after a step borrowed them (same memory, new views). */
  adopt(layer: number, key: Float32Array, value: Float32Array): void {
    this.keys[layer] = key;
    this.values[layer] = value;
  }

  /** Copies what row `row`'s cache gained since the mirror last saw it (the positions a step appended). */
  catchUp(row: number): void {
    const cache = this.caches[row]!;
    for (let layer = 0; layer < this.config.numLayers; layer++) {
      cache.copyInto(layer, this.keys[layer]!, this.values[layer]!, row, this.capacity, this.lengths[row]);
    }
    this.lengths[row] = cache.length;
  }
}
