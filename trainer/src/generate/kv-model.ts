import type { HostTensor } from '../engine/host-tensor.js';
import type { RunOptions, RuntimeOptions } from '../engine/runtime.js';
import type { ModelConfig } from '../model/config.js';
import type { WeightMap } from '../model/weights.js';
import { buildKvGraph } from './kv-graph.js';
import { BatchKv } from './batch-kv.js';
import type { KvCache } from './kv-cache.js';
import { KV } from './kv-names.js';
import { InlineKvRunner, type KvRunner } from './kv-runner.js';
import { ThreadKvRunner } from './kv-thread.js';
import { EngineStoppedError } from './errors.js';

export interface KvModelOptions {
  /**
   * Run onnxruntime on a thread of its own (the server does, so its event loop stays free while
   * a step runs); default: on the calling thread.
   */
  thread?: boolean;
  /** Weights that are graph inputs, fed with every step's adapter feeds (see buildKvGraph). */
  fedWeights?: readonly string[];
}

/** Batch mirrors kept at once (one per adapter group decoding in turn). */
const MIRRORS = 4;

/** One row of a cached forward step: new tokens after what the cache holds. */
export interface StepRow {
  cache: KvCache;
  tokens: readonly number[];
  /** Indices into `tokens` whose next-token logits are wanted (default: the last). */
  logitsAt?: readonly number[];
}

/**
 * The cached forward on one onnxruntime session. A step takes any mix of rows — a prompt
 * (prefill), one token (decode) — pads them into one batch, runs, appends each row's new keys and
 * values to its cache, and returns each row's logits [wanted positions][vocab].
 */
export class KvModel {
  /** Past-KV feed buffers reused across steps: allocating tens of MB per step cost more than the step. */
  private readonly scratch = new Map<string, Float32Array>();
  /** Decode batches' padded pasts, most recent first; several, so that alternating adapter groups all stay warm. */
  private mirrors: BatchKv[] = [];
  private busy = false;

  private constructor(
    readonly config: ModelConfig,
    private readonly runner: KvRunner,
  ) {}

  static async create(
    config: ModelConfig,
    weights: WeightMap,
    runtime?: RuntimeOptions,
    options: KvModelOptions = {},
  ): Promise<KvModel> {
    const graph = buildKvGraph(config, weights, options.fedWeights);
    return new KvModel(
      config,
      options.thread ? await ThreadKvRunner.create(graph, runtime) : await InlineKvRunner.create(graph, runtime),
    );
  }

  /** Why steps can no longer run (the inference thread died), once they cannot. */
  get failure(): Error | undefined {
    return this.runner.failure;
  }

  /** One step at a time (the feed buffers are shared); the engine's single loop guarantees it. */
  async step(
    rows: readonly StepRow[],
    adapterFeeds: Record<string, HostTensor>,
    options: RunOptions = {},
  ): Promise<Float32Array[][]> {
    if (rows.length === 0) return [];
    if (this.busy) throw new Error('KvModel.step: a step is already running; steps must not overlap');
    this.busy = true;
    try {
      return await this.run(rows, adapterFeeds, options);
    } finally {
      this.busy = false;
    }
  }

  private async run(
    rows: readonly StepRow[],
    adapterFeeds: Record<string, HostTensor>,
    options: RunOptions,
  ): Promise<Float32Array[][]> {
    const { numLayers, numKvHeads: heads, headDim: d, vocabSize } = this.config;
    const batch = rows.length;
    const seq = Math.max(...rows.map((r) => r.tokens.length));
    const mirror = seq === 1 ? this.mirrorFor(rows.map((r) => r.cache)) : undefined;
    const past = mirror ? mirror.capacity : Math.max(...rows.map((r) => r.cache.length));
    const ids = new BigInt64Array(batch * seq);
    const positions = new BigInt64Array(batch * seq);
    const mask = new BigInt64Array(batch * (past + seq));
    const logitRows: number[] = [];
    const wanted = rows.map((r) => r.logitsAt ?? [r.tokens.length - 1]);
    rows.forEach((r, b) => {
      for (let t = 0; t < seq; t++) {
        ids[b * seq + t] = BigInt(r.tokens[t] ?? 0);
        positions[b * seq + t] = BigInt(r.cache.length + t);
        if (t < r.tokens.length) mask[b * (past + seq) + past + t] = 1n;
      }
      for (let j = 0; j < r.cache.length; j++) mask[b * (past + seq) + j] = 1n;
      for (const t of wanted[b]!) logitRows.push(b * seq + t);
    });
    const feeds: Record<string, HostTensor> = {
      [KV.inputIds]: { dtype: 'int64', dims: [batch, seq], data: ids },
      [KV.positionIds]: { dtype: 'int64', dims: [batch, seq], data: positions },
      [KV.attentionMask]: { dtype: 'int64', dims: [batch, past + seq], data: mask },
      [KV.logitRows]: { dtype: 'int64', dims: [logitRows.length], data: BigInt64Array.from(logitRows, BigInt) },
    };
    for (let layer = 0; layer < numLayers; layer++) {
      let key: Float32Array;
      let value: Float32Array;
      if (mirror) {
        key = mirror.keys[layer]!;
        value = mirror.values[layer]!;
      } else {
        // Padding slots keep stale (finite) values from earlier steps; the mask gives them zero weight.
        key = this.buffer(KV.pastKey(layer), batch * heads * past * d);
        value = this.buffer(KV.pastValue(layer), batch * heads * past * d);
        rows.forEach((r, b) => r.cache.copyInto(layer, key, value, b, past));
      }
      feeds[KV.pastKey(layer)] = { dtype: 'float32', dims: [batch, heads, past, d], data: key };
      feeds[KV.pastValue(layer)] = { dtype: 'float32', dims: [batch, heads, past, d], data: value };
    }
    const lend = Array.from({ length: numLayers }, (_, layer) => [KV.pastKey(layer), KV.pastValue(layer)]).flat();
    let out: Record<string, HostTensor>;
    try {
      const step = await this.runner.run(adapterFeeds, feeds, lend, options);
      this.reclaim(step.returned, mirror);
      out = step.outputs;
    } catch (error) {
      // Lent buffers that did not come back are gone: start the pasts and scratch buffers afresh.
      this.mirrors = [];
      this.scratch.clear();
      throw this.runner.failure ? new EngineStoppedError() : error;
    }
    const present = (layer: number) => ({
      key: out[KV.presentKey(layer)]!.data as Float32Array,
      value: out[KV.presentValue(layer)]!.data as Float32Array,
    });
    rows.forEach((r, b) => {
      r.cache.append(present, b, seq, r.tokens.length);
      mirror?.catchUp(b);
    });
    const logits = out[KV.logits]!.data as Float32Array;
    let next = 0;
    return wanted.map((positionsWanted) =>
      positionsWanted.map(() => logits.slice(next * vocabSize, ++next * vocabSize)),
    );
  }

  /** Takes back the past buffers a step borrowed (a thread returns them as new views of the same memory). */
  private reclaim(returned: Record<string, Float32Array>, mirror: BatchKv | undefined): void {
    for (let layer = 0; layer < this.config.numLayers; layer++) {
      const key = returned[KV.pastKey(layer)]!;
      const value = returned[KV.pastValue(layer)]!;
      if (mirror) {
        mirror.adopt(layer, key, value);
      } else {
        this.scratch.set(KV.pastKey(layer), new Float32Array(key.buffer));
        this.scratch.set(KV.pastValue(layer), new Float32Array(value.buffer));
      }
    }
  }

  /** The mirror of this decode batch: kept from the last step while its rows stay the same, else rebuilt. */
  private mirrorFor(caches: readonly KvCache[]): BatchKv {
    const found = this.mirrors.find((m) => m.serves(caches, 1));
    if (found) {
      this.mirrors = [found, ...this.mirrors.filter((m) => m !== found)];
      return found;
    }
    const recycled = this.mirrors.length >= MIRRORS ? this.mirrors.pop() : undefined;
    const built = BatchKv.build(this.config, caches, 1, recycled);
    this.mirrors.unshift(built);
    return built;
  }

  private buffer(name: string, size: number): Float32Array {
    let known = this.scratch.get(name);
    if (!known || known.length < size) {
      known = new Float32Array(Math.max(size, 2 * (known?.length ?? 0)));
      this.scratch.set(name, known);
    }
    return known.subarray(0, size);
  }

  async release(): Promise<void> {
    this.mirrors = [];
    await this.runner.release();
  }
}
