import type { Tensor } from '../graph.js';
import * as o from '../ops.js';
import { logSumExp, softmax } from './softmax.js';

/**
 * log p(target) per position from logits [batch, seq, vocab] and targets [batch, seq], with the
 * logits divided by the sampling temperature first (GRPO's convention). Computed as
 * z[target] − logsumexp(z), which never materialises the full log-softmax.
 */
export function tokenLogProbs(logits: Tensor, targets: Tensor, temperature: number | Tensor = 1): Tensor {
  const z = temperature === 1 ? logits : o.div(logits, temperature);
  const picked = o.gatherElements(z, o.unsqueeze(targets, [-1]), -1);
  return o.squeeze(o.sub(picked, logSumExp(z, -1)), [-1]);
}

/**
 * Entropy −Σ p log p of softmax(logits / temperature) per row, over the last axis, as
 * logsumexp(z) − Σ p·z (one softmax, no full log-softmax kept).
 */
export function tokenEntropy(logits: Tensor, temperature: number | Tensor = 1): Tensor {
  const z = temperature === 1 ? logits : o.div(logits, temperature);
  const p = softmax(z, -1);
  return o.sub(o.squeeze(logSumExp(z, -1), [-1]), o.reduceSum(o.mul(p, z), [-1], false));
}

/**
 * softplus(x) = log(1 + eˣ) = −log σ(−x), stable for any x as max(x, 0) + log(1 + e^−|x|). At
 * x = 0 the backward rules of Max (ties to the first input) and Abs (+1 at 0) both take the
 * right-hand branch, so the gradient there is σ(0) = ½ as it should be.
 */
export function softplus(x: Tensor): Tensor {
  return o.add(o.max(x, 0), o.log(o.add(o.exp(o.neg(o.abs(x))), 1)));
}
