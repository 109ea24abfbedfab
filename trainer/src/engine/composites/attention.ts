import type { DType } from '../dtype.js';
import type { Tensor } from '../graph.js';
import * as o from '../ops.js';
import { dimOf, transposeLast2 } from '../helpers.js';
import { softmax } from './softmax.js';

/**
 * Additive attention bias [batch, 1, 1, seq, seq] from an attention mask [batch, seq] (1 = real
 * token): 0 where query i may see key j (j ≤ i and key j is real), a large negative number
 * elsewhere. Finite, so a fully masked row (a padding query) stays uniform instead of NaN.
 */
export function causalMaskBias(attentionMask: Tensor, dtype: DType): Tensor {
  const g = attentionMask.graph;
  const seq = attentionMask.shape[1]!;
  const length = o.squeeze(o.shape(attentionMask, 1, 2), [0]);
  const index = o.range(g.constant(0, 'int64'), length, g.constant(1, 'int64'), [seq]);
  const causal = o.lessOrEqual(o.unsqueeze(index, [0]), o.unsqueeze(index, [1]));
  const visible = o.and(causal, o.unsqueeze(o.cast(attentionMask, 'bool'), [1, 2, 3]));
  return o.where(visible, g.constant(0, dtype), g.constant(dtype === 'float16' ? -6e4 : -1e9, dtype));
}

/**
 * Scaled dot-product attention with grouped KV heads. q: [batch, heads, seq, d]; k, v:
 * [batch, kvHeads, seq, d]; bias broadcastable to [batch, kvHeads, groups, seq, seq]. Query heads
 * are viewed as [kvHeads, groups] so K and V broadcast over the group instead of being copied.
 */
export function attention(
  q: Tensor,
  k: Tensor,
  v: Tensor,
  bias: Tensor,
  kvHeads: number,
  queriesScaled = false,
): Tensor {
  const heads = q.shape[1] as number;
  const qg = groupedQueries(q, kvHeads, queriesScaled);
  const probs = softmax(o.add(o.matmul(qg, transposeLast2(o.unsqueeze(k, [2]))), bias));
  return o.reshape(o.matmul(probs, o.unsqueeze(v, [2])), [0, heads, -1, q.shape[3] as number]);
}

/**
 * `attention` for feature-major heads, the layout W·xᵀ projections produce without a transpose:
 * qᵀ [batch, heads, d, seq] (scaled by 1/√d already, as RoPE's query tables do), kᵀ and vᵀ
 * [batch, kvHeads, d, seq]. Returns outᵀ [batch, heads·d, seq], the layout the output projection
 * reads through MatMul's transposed operand. Every transpose here swaps the last two axes of a
 * MatMul operand, which onnxruntime folds into the MatMul; the head-major layout needs a 4-D
 * Transpose of q, k, v and the output each way instead, a full pass over each.
 */
export function attentionFeatureMajor(q: Tensor, k: Tensor, v: Tensor, bias: Tensor, kvHeads: number): Tensor {
  const [heads, d] = [q.shape[1] as number, q.shape[2] as number];
  const qg = o.reshape(q, [0, kvHeads, heads / kvHeads, d, -1]);
  const probs = softmax(o.add(o.matmul(transposeLast2(qg), o.unsqueeze(k, [2])), bias));
  return o.reshape(o.matmul(o.unsqueeze(v, [2]), transposeLast2(probs)), [0, heads * d, -1]);
}

/**
 * Attention over cached keys and values followed by new ones, without concatenating them: the
 * scores of both parts are joined (small: one row per query), and the weighted sums are taken
 * from each part in place. Concatenating the cache instead copied all of it on every decode step,
 * which made the step time grow with the context. Same arguments as `attention`, with k and v split
 * into `past` and `fresh` along the sequence axis; `bias` covers past + fresh keys.
 */
export function attentionWithPast(
  q: Tensor,
  past: KeysValues,
  fresh: KeysValues,
  bias: Tensor,
  kvHeads: number,
  queriesScaled = false,
): Tensor {
  const heads = q.shape[1] as number;
  const qg = groupedQueries(q, kvHeads, queriesScaled);
  const scores = (k: Tensor) => o.matmul(qg, transposeLast2(o.unsqueeze(k, [2])));
  const probs = softmax(o.add(o.concat([scores(past.key), scores(fresh.key)], -1), bias));
  const lead = probs.shape.slice(0, -1);
  const sizes = o.concat([dimOf(past.key, 2), dimOf(fresh.key, 2)], 0);
  const [pastProbs, freshProbs] = o.split(probs, sizes, -1, [
    [...lead, past.key.shape[2]!],
    [...lead, fresh.key.shape[2]!],
  ]);
  const attended = o.add(
    o.matmul(pastProbs!, o.unsqueeze(past.value, [2])),
    o.matmul(freshProbs!, o.unsqueeze(fresh.value, [2])),
  );
  return o.reshape(attended, [0, heads, -1, q.shape[3] as number]);
}

export interface KeysValues {
  key: Tensor;
  value: Tensor;
}

/**
 * q [batch, heads, seq, d] scaled by 1/√d (unless `scaled`: RoPE's query tables did it) and viewed
 * as [batch, kvHeads, groups, seq, d], so K and V broadcast over the group instead of being copied.
 */
function groupedQueries(q: Tensor, kvHeads: number, scaled: boolean): Tensor {
  const heads = q.shape[1] as number;
  const d = q.shape[3] as number;
  return o.reshape(scaled ? q : o.mul(q, 1 / Math.sqrt(d)), [0, kvHeads, heads / kvHeads, -1, d]);
}
