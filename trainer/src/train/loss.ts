import type { DType } from '../engine/dtype.js';
import type { Graph, Tensor } from '../engine/graph.js';
import * as o from '../engine/ops.js';

/**
 * What a loss sees. Log-probs and mask are [batch, seq] aligned with targets (position t scores
 * token t + 1). Batch-wide normalisers and per-example values are graph inputs the loss asks
 * for by name; the trainer feeds exactly those it asked for.
 */
export interface LossContext {
  graph: Graph;
  dtype: DType;
  /** log p(target) at the sampling temperature. */
  logprobs: Tensor;
  /** 1 where a target is trained on (completion, not env, not padding), else 0. */
  mask: Tensor;
  /** Entropy of the next-token distribution (at the sampling temperature) where scored, 0 elsewhere; no gradient (a metric). */
  entropy(): Tensor;
  /** Masked tokens in the whole optimizer batch (all micro-batches), shape []. */
  totalTokens(): Tensor;
  /** Sequences in the whole optimizer batch, shape []. */
  totalSequences(): Tensor;
  /** A value per sequence, [batch], from each example's `extras[name]` (a number). */
  sequenceInput(name: string): Tensor;
  /** A value per target position, [batch, seq], from `extras[name]` (an array aligned with the tokens). */
  tokenInput(name: string): Tensor;
  /**
   * The scored positions' next-token logits at the sampling temperature, [scored, vocab], with
   * each row's loss mask, [scored]: a loss over whole distributions (distillation) reads these.
   */
  scoredRows(): { logits: Tensor; mask: Tensor };
  /**
   * `width` values per scored position, [scored, width], from each sequence's `rows[name]`
   * (its scored positions' rows one after another, in token order).
   */
  rowInput(name: string, width: number, dtype?: 'float' | 'int64'): Tensor;
}

export interface LossOutput {
  /** Scalar to minimise; summed over micro-batches, so normalise by the batch totals. */
  loss: Tensor;
  /** Extra scalars to report, summed over micro-batches like the loss. */
  metrics?: Record<string, Tensor>;
  /** Extra graph outputs by name, returned whole (a forward-only scorer reads a distribution). */
  outputs?: Record<string, Tensor>;
}

export interface LossFn {
  readonly name: string;
  build(ctx: LossContext): LossOutput;
}

/** Supervised fine-tuning: mean negative log-likelihood over every trained token of the batch. */
export const sftLoss: LossFn = {
  name: 'sft',
  build(ctx) {
    const nll = o.neg(o.reduceSum(o.mul(ctx.logprobs, ctx.mask), [], false));
    return { loss: o.div(nll, ctx.totalTokens()) };
  },
};
