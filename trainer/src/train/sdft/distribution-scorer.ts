import { logSoftmax } from '../../engine/composites/softmax.js';
import type { HostTensor } from '../../engine/host-tensor.js';
import * as o from '../../engine/ops.js';
import type { RunOptions, RuntimeOptions } from '../../engine/runtime.js';
import { Runtime } from '../../engine/runtime.js';
import { adapterFeeds } from '../../graph/graph.js';
import type { LoraAdapter } from '../../lora/adapter.js';
import type { LoraConfig } from '../../lora/config.js';
import type { ModelConfig } from '../../model/config.js';
import type { WeightMap } from '../../model/weights.js';
import type { TrainSequence } from '../batch.js';
import { batchTotals, collate, validateSequence } from '../batch.js';
import type { LossFn } from '../loss.js';
import { microBatches } from '../micro-batches.js';
import type { TrainGraph } from '../train-graph.js';
import { buildTrainGraph } from '../train-graph.js';

const ROWS = 'next_token_logprobs';

// Forward only: the "loss" is a placeholder the graph needs; the scorer reads the log-softmax rows.
const distribution: LossFn = {
  name: 'distribution',
  build: (c) => ({
    loss: o.reduceSum(c.logprobs, [], false),
    outputs: { [ROWS]: logSoftmax(c.scoredRows().logits, -1) },
  }),
};

/**
 * Next-token log-probs over the whole vocabulary at every trained position of each sequence,
 * under a given adapter: the trainer's own forward graph (no gradients, its own session and copy
 * of the frozen weights). SDFT scores its teacher with it (the teacher's adapter, the
 * demonstration in the prompt). Rows come per sequence, trained positions in token order, each
 * `vocab` wide — the layout the SDFT loss's row input takes.
 */
export class DistributionScorer {
  private constructor(
    private readonly config: ModelConfig,
    private readonly graph: TrainGraph,
    private readonly runtime: Runtime,
    private readonly microBatchSize: number | undefined,
  ) {}

  static async create(options: {
    config: ModelConfig;
    weights: WeightMap;
    /** The layout of the adapters it will score with. */
    lora: LoraConfig;
    microBatchSize?: number | undefined;
    runtime?: RuntimeOptions | undefined;
  }): Promise<DistributionScorer> {
    const graph = buildTrainGraph(options.config, options.weights, {
      lora: options.lora,
      loss: distribution,
      withGradients: false,
    });
    const runtime = await Runtime.create(graph.graph, options.runtime);
    return new DistributionScorer(options.config, graph, runtime, options.microBatchSize);
  }

  async score(
    sequences: readonly TrainSequence[],
    adapter: LoraAdapter,
    options: RunOptions = {},
  ): Promise<Float32Array[]> {
    const vocab = this.config.vocabSize;
    sequences.forEach((s, i) => validateSequence(s, i, vocab));
    const feeds: Record<string, HostTensor> = adapterFeeds(adapter);
    const totals = batchTotals(sequences);
    const out = new Array<Float32Array>(sequences.length);
    for (const rows of microBatches(sequences, this.microBatchSize)) {
      options.signal?.throwIfAborted();
      const batch = rows.map((i) => sequences[i]!);
      const result = await this.runtime.run({ ...collate(batch, this.graph, totals), ...feeds }, options);
      const all = result[ROWS]!.data as Float32Array;
      let at = 0;
      batch.forEach((s, k) => {
        const width = s.mask.slice(1).filter((m) => m !== 0).length * vocab;
        out[rows[k]!] = all.slice(at, at + width);
        at += width;
      });
    }
    return out;
  }

  async release(): Promise<void> {
    await this.runtime.release();
  }
}
