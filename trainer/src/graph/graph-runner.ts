import type { HostTensor } from '../engine/host-tensor.js';
import type { RunOptions, RuntimeOptions } from '../engine/runtime.js';
import { Runtime } from '../engine/runtime.js';
import type { LoraAdapter } from '../lora/adapter.js';
import type { LoraConfig } from '../lora/config.js';
import type { ModelConfig } from '../model/config.js';
import { adapterFeeds, buildModelGraph, loraInputNames } from './graph.js';
import { batchFeeds, padBatch } from './graph-feeds.js';
import type { WeightMap } from '../model/weights.js';

export interface ModelRunnerOptions {
  /** Build the graph with adapter inputs for these targets; runs without an adapter feed zeros. */
  lora?: LoraConfig;
  runtime?: RuntimeOptions;
}

/**
 * A forward-only session over one model: logits for a batch, and plain greedy decoding (a full
 * forward per token — the KV-cached generation engine is separate; this serves tests and checks).
 */
export class ModelRunner {
  private constructor(
    readonly config: ModelConfig,
    private readonly runtime: Runtime,
    private readonly zeroAdapter: Record<string, HostTensor>,
  ) {}

  static async create(config: ModelConfig, weights: WeightMap, options: ModelRunnerOptions = {}): Promise<ModelRunner> {
    const model = buildModelGraph(config, weights, options.lora ? { lora: options.lora } : {});
    model.graph.output(model.logits, 'logits');
    const zeros: Record<string, HostTensor> = {};
    for (const [path, { a, b }] of model.lora) {
      const names = loraInputNames(path);
      zeros[names.a] = {
        dtype: 'float32',
        dims: a.shape as number[],
        data: new Float32Array((a.shape as number[]).reduce((x, y) => x * y, 1)),
      };
      zeros[names.b] = {
        dtype: 'float32',
        dims: b.shape as number[],
        data: new Float32Array((b.shape as number[]).reduce((x, y) => x * y, 1)),
      };
    }
    return new ModelRunner(config, await Runtime.create(model.graph, options.runtime), zeros);
  }

  /** Logits [batch, seq, vocab] for right-padded sequences. */
  async logits(
    sequences: readonly (readonly number[])[],
    adapter?: LoraAdapter,
    options: RunOptions = {},
  ): Promise<HostTensor<'float32'>> {
    const batch = padBatch(sequences, 0);
    const feeds = { ...batchFeeds(batch), ...this.zeroAdapter, ...(adapter ? adapterFeeds(adapter) : {}) };
    return (await this.runtime.run(feeds, options))['logits'] as HostTensor<'float32'>;
  }

  /** Greedy continuation of each prompt, up to maxTokens or a stop id (the stop id is kept). */
  async greedy(
    prompts: readonly (readonly number[])[],
    maxTokens: number,
    stopIds: readonly number[] = [],
    adapter?: LoraAdapter,
    options: RunOptions = {},
  ): Promise<number[][]> {
    const outputs = prompts.map(() => [] as number[]);
    const done = prompts.map(() => false);
    for (let step = 0; step < maxTokens && done.includes(false); step++) {
      const sequences = prompts.map((p, i) => [...p, ...outputs[i]!]);
      const logits = await this.logits(sequences, adapter, options);
      const [, seq, vocab] = logits.dims as [number, number, number];
      sequences.forEach((s, i) => {
        if (done[i]) return;
        const row = logits.data.subarray((i * seq + s.length - 1) * vocab, (i * seq + s.length) * vocab);
        const next = argmax(row);
        outputs[i]!.push(next);
        if (stopIds.includes(next)) done[i] = true;
      });
    }
    return outputs;
  }

  async release(): Promise<void> {
    await this.runtime.release();
  }
}

export function argmax(values: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}
