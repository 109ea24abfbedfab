import type { Tensor } from '../graph.js';
import * as o from '../ops.js';

/**
 * Softmax family from primitives. The subtracted max is held out of the backward pass: softmax
 * does not depend on it, so its gradient would be exactly zero — computing it would be waste.
 */
export function stableShift(x: Tensor, axis = -1): Tensor {
  return o.sub(x, o.stopGradient(o.reduceMax(x, [axis])));
}

/**
 * exp(x − max) times the reciprocal of its sum: the reciprocal is taken once per row, so the wide
 * tensor sees one Mul, and Mul's backward (two Muls) is cheaper than Div's (Div, Mul, Div, Neg).
 */
export function softmax(x: Tensor, axis = -1): Tensor {
  const e = o.exp(stableShift(x, axis));
  return o.mul(e, o.reciprocal(o.reduceSum(e, [axis])));
}

export function logSumExp(x: Tensor, axis = -1): Tensor {
  const m = o.stopGradient(o.reduceMax(x, [axis]));
  return o.add(o.log(o.reduceSum(o.exp(o.sub(x, m)), [axis])), m);
}

export function logSoftmax(x: Tensor, axis = -1): Tensor {
  const z = stableShift(x, axis);
  return o.sub(z, o.log(o.reduceSum(o.exp(z), [axis])));
}
