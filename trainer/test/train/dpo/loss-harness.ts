import { gradients } from '../../../src/engine/autodiff.js';
import { Graph, type Tensor } from '../../../src/engine/graph.js';
import { f64, type HostTensor } from '../../../src/engine/host-tensor.js';
import { Runtime } from '../../../src/engine/runtime.js';
import type { DpoConfig } from '../../../src/train/dpo/config.js';
import { dpoLoss, IS_CHOSEN, PAIR_ID } from '../../../src/train/dpo/loss.js';
import { REF_LOGPROBS } from '../../../src/train/grpo/loss.js';
import { contextFrom } from '../grpo/loss-harness.js';

/** The DPO loss on small hand-made tensors: log-probs are an input, no model. Rows may be in any order. */
export interface PairData {
  lp: number[][];
  ref: number[][];
  mask: number[][];
  pair: number[];
  chosen: number[];
  /** Sequences in the whole optimizer batch (twice its pairs). */
  totalSequences: number;
}

export const INPUT_NAMES = ['lp', 'mask', REF_LOGPROBS, PAIR_ID, IS_CHOSEN, 'total_sequences'] as const;

export function pairFeeds(d: PairData): Record<(typeof INPUT_NAMES)[number], HostTensor> {
  const [b, t] = [d.lp.length, d.lp[0]!.length];
  return {
    lp: f64([b, t], d.lp.flat()),
    mask: f64([b, t], d.mask.flat()),
    [REF_LOGPROBS]: f64([b, t], d.ref.flat()),
    [PAIR_ID]: f64([b], d.pair),
    [IS_CHOSEN]: f64([b], d.chosen),
    total_sequences: f64([], [d.totalSequences]),
  };
}

export interface DpoValues {
  loss: number;
  metrics: Record<string, number>;
  /** d loss / d lp, [batch × seq] flattened. */
  grad: number[];
}

/** Builds the loss for `config`, runs it on onnxruntime in float64: loss, metrics and d loss / d lp. */
export async function evaluateDpoLoss(config: DpoConfig, data: PairData): Promise<DpoValues> {
  const graph = new Graph('dpo-loss');
  const declared = new Map<string, Tensor>();
  const ctx = contextFrom(graph, (name, shape) => {
    if (!declared.has(name)) declared.set(name, graph.input(name, 'float64', shape));
    return declared.get(name)!;
  });
  const lp = ctx.logprobs;
  const out = dpoLoss(config).build(ctx);
  graph.output(out.loss, 'loss');
  const metricNames = Object.keys(out.metrics ?? {});
  metricNames.forEach((name, i) => graph.output(out.metrics![name]!, `metric_${i}`));
  graph.output(gradients(out.loss, [lp])[0]!, 'grad');
  const feeds: Record<string, HostTensor> = pairFeeds(data);
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
