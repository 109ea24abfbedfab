import { gradients } from '../../../src/engine/autodiff.js';
import { Graph, type Tensor } from '../../../src/engine/graph.js';
import { f64, type HostTensor } from '../../../src/engine/host-tensor.js';
import { Runtime } from '../../../src/engine/runtime.js';
import type { GrpoConfig } from '../../../src/train/grpo/config.js';
import {
  ADVANTAGE,
  grpoLoss,
  OLD_IS_CURRENT,
  OLD_LOGPROBS,
  REF_LOGPROBS,
  SAMPLER_LOGPROBS,
} from '../../../src/train/grpo/loss.js';
import type { LossContext, LossOutput } from '../../../src/train/loss.js';

/**
 * The GRPO loss on small hand-made tensors, without a model: log-probs are an input, so every
 * knob's arithmetic can be checked against values worked out by hand, and its gradient against
 * finite differences.
 */
export interface LossData {
  lp: number[][];
  mask: number[][];
  advantage: number[];
  old: number[][];
  oldIsCurrent?: number[];
  sampler?: number[][];
  ref?: number[][];
  entropy?: number[][];
  totalTokens: number;
  totalSequences: number;
}

/** Every tensor the loss can ask for, by name, as [dims, values]. */
export function lossFeeds(d: LossData): Record<string, HostTensor> {
  const [b, t] = [d.lp.length, d.lp[0]!.length];
  const grid = (rows: number[][] | undefined) => f64([b, t], (rows ?? d.lp.map((r) => r.map(() => 0))).flat());
  return {
    lp: grid(d.lp),
    mask: grid(d.mask),
    entropy: grid(d.entropy),
    [ADVANTAGE]: f64([b], d.advantage),
    [OLD_IS_CURRENT]: f64([b], d.oldIsCurrent ?? d.advantage.map(() => 0)),
    [OLD_LOGPROBS]: grid(d.old),
    [SAMPLER_LOGPROBS]: grid(d.sampler),
    [REF_LOGPROBS]: grid(d.ref),
    total_tokens: f64([], [d.totalTokens]),
    total_sequences: f64([], [d.totalSequences]),
  };
}

/** A LossContext whose tensors come from `lookup` (graph inputs by name). */
export function contextFrom(graph: Graph, lookup: (name: string, shape: (string | number)[]) => Tensor): LossContext {
  return {
    graph,
    dtype: 'float64',
    logprobs: lookup('lp', ['batch', 'seq']),
    mask: lookup('mask', ['batch', 'seq']),
    entropy: () => lookup('entropy', ['batch', 'seq']),
    totalTokens: () => lookup('total_tokens', []),
    totalSequences: () => lookup('total_sequences', []),
    sequenceInput: (name) => lookup(name, ['batch']),
    tokenInput: (name) => lookup(name, ['batch', 'seq']),
    scoredRows: () => {
      throw new Error('the GRPO losses read no whole distributions');
    },
    rowInput: () => {
      throw new Error('the GRPO losses read no row inputs');
    },
  };
}

export interface LossValues {
  loss: number;
  metrics: Record<string, number>;
  /** d loss / d lp, [batch × seq] flattened. */
  grad: number[];
}

/** Builds the loss for `config`, runs it on onnxruntime in float64, returns loss, metrics and the gradient w.r.t. lp. */
export async function evaluateLoss(config: GrpoConfig, data: LossData): Promise<LossValues> {
  const graph = new Graph('grpo-loss');
  const declared = new Map<string, Tensor>();
  const ctx = contextFrom(graph, (name, shape) => {
    if (!declared.has(name)) declared.set(name, graph.input(name, 'float64', shape));
    return declared.get(name)!;
  });
  const lp = ctx.logprobs;
  const out: LossOutput = grpoLoss(config).build(ctx);
  graph.output(out.loss, 'loss');
  const metricNames = Object.keys(out.metrics ?? {});
  metricNames.forEach((name, i) => graph.output(out.metrics![name]!, `metric_${i}`));
  graph.output(gradients(out.loss, [lp])[0]!, 'grad');
  const feeds = lossFeeds(data);
  const runtime = await Runtime.create(graph, { intraOpNumThreads: 1 });
  try {
    const result = await runtime.run(Object.fromEntries([...declared.keys()].map((name) => [name, feeds[name]!])));
    const scalar = (name: string) => result[name]!.data[0] as number;
    return {
      loss: scalar('loss'),
      metrics: Object.fromEntries(metricNames.map((name, i) => [name, scalar(`metric_${i}`)])),
      grad: Array.from(result['grad']!.data as Float64Array),
    };
  } finally {
    await runtime.release();
  }
}
