import type { DType } from '../dtype.js';
import type { Tensor } from '../graph.js';
import * as o from '../ops.js';
import { transposeLast2 } from '../helpers.js';
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
export function attention(q: Tensor, k: Tensor, v: Tensor, bias: Tensor, kvHeads: number): Tensor {
  const heads = q.shape[1] as number;
  const d = q.shape[3] as number;
  const groups = heads / kvHeads;
  const qg = o.reshape(o.mul(q, 1 / Math.sqrt(d)), [0, kvHeads, groups, -1, d]);
  const kg = o.unsqueeze(k, [2]);
  const vg = o.unsqueeze(v, [2]);
  const probs = softmax(o.add(o.matmul(qg, transposeLast2(kg)), bias));
  return o.reshape(o.matmul(probs, vg), [0, heads, -1, d]);
}
