import type { HostTensor } from '../engine/host-tensor.js';
import type { RunOptions, RuntimeOptions } from '../engine/runtime.js';
import { Runtime } from '../engine/runtime.js';
import * as o from '../engine/ops.js';
import type { LoraAdapter } from '../lora/adapter.js';
import type { LoraConfig } from '../lora/config.js';
import type { ModelConfig } from '../model/config.js';
import { adapterFeeds } from '../graph/graph.js';
import type { WeightMap } from '../model/weights.js';
import type { TrainSequence } from './batch.js';
import { batchTotals, collate, rowLogprobs, validateSequence } from './batch.js';
import { microBatches } from './micro-batches.js';
import type { LossFn } from './loss.js';
import type { TrainGraph } from './train-graph.js';
import { buildTrainGraph, LOGPROBS } from './train-graph.js';

export interface LogprobScorerOptions {
  config: ModelConfig;
  weights: WeightMap;
  /** The adapter layout scored with (any adapter passed to score() must have it); absent: no adapter. */
  lora?: LoraConfig | undefined;
  /** Base weights fed at each score() instead of baked in (a full-parameter run scores its current weights). */
  trainable?: readonly string[];
  /** The sampling temperature the trainer scores at. */
  temperature?: number;
  /** Sequences per forward pass (default: as many as fit MICRO_BATCH_TOKENS). */
  microBatchSize?: number;
  runtime?: RuntimeOptions;
}

// The training graph needs a loss to build; scoring reads only its log-probs.
const noLoss: LossFn = { name: 'score', build: (c) => ({ loss: o.reduceSum(o.mul(c.logprobs, c.mask), [], false) }) };

/**
 * Forward-only log-probs of trained tokens: the training graph without gradients, in its own
 * session (it holds its own copy of the frozen base weights). With an adapter it gives the policy's
 * log-probs before an update (GRPO's lp_old); with null the adapter-free model's (the KL reference).
 * Trained base weights are inputs, fed from the weights passed to score().
 */
export class LogprobScorer {
  private constructor(
    private readonly options: LogprobScorerOptions,
    private readonly graph: TrainGraph,
    private readonly runtime: Runtime,
    private readonly zeroAdapter: Record<string, HostTensor>,
  ) {}

  static async create(options: LogprobScorerOptions): Promise<LogprobScorer> {
    const graph = buildTrainGraph(options.config, options.weights, {
      lora: options.lora,
      ...(options.trainable ? { trainable: options.trainable } : {}),
      loss: noLoss,
      withGradients: false,
      ...(options.temperature ? { temperature: options.temperature } : {}),
    });
    const zeros: Record<string, HostTensor> = {};
    const trainable = new Set(options.trainable);
    const factors = graph.graph.inputs.filter((input) => graph.parameters.includes(input.name));
    for (const t of factors.filter((input) => !trainable.has(input.name))) {
      const dims = t.shape as number[];
      zeros[t.name] = { dtype: 'float32', dims, data: new Float32Array(dims.reduce((a, b) => a * b, 1)) };
    }
    return new LogprobScorer(options, graph, await Runtime.create(graph.graph, options.runtime), zeros);
  }

  /**
   * Per sequence, log p(token t) at index t where the mask is 1, 0 elsewhere (the trainer's
   * alignment). adapter null scores the base model: LoRA's B factors are fed as zeros. The
   * `trainable` weights come from `weights` (default: the options' weights, the starting model).
   */
  async score(
    sequences: readonly TrainSequence[],
    adapter: LoraAdapter | null,
    options: RunOptions = {},
    weights: WeightMap = this.options.weights,
    onProgress?: (scored: number, total: number) => void,
  ): Promise<Float32Array[]> {
    sequences.forEach((s, i) => validateSequence(s, i, this.options.config.vocabSize));
    const feeds: Record<string, HostTensor> = { ...(adapter ? adapterFeeds(adapter) : this.zeroAdapter) };
    for (const name of this.options.trainable ?? []) {
      const w = weights.get(name);
      if (w) feeds[name] = { dtype: 'float32', dims: w.shape, data: w.data };
    }
    const missing = this.graph.parameters.find((name) => !feeds[name]);
    if (missing)
      throw new RangeError(
        `the adapter has no tensor for '${missing}' (its targets differ from the scorer's LoRA config)`,
      );
    const out = new Array<Float32Array>(sequences.length);
    let scored = 0;
    const totals = batchTotals(sequences);
    // Split as the trainer splits: the same passes give the same log-probs.
    for (const rows of microBatches(sequences, this.options.microBatchSize)) {
      const result = await this.runtime.run(
        {
          ...collate(
            rows.map((i) => sequences[i]!),
            this.graph,
            totals,
          ),
          ...feeds,
        },
        options,
      );
      rows.forEach((i, k) => (out[i] = rowLogprobs(result[LOGPROBS]!, k, sequences[i]!.tokens.length)));
      scored += rows.length;
      onProgress?.(scored, sequences.length);
    }
    return out;
  }

  async release(): Promise<void> {
    await this.runtime.release();
  }
}
