import type { Tensor } from '../graph.js';
import * as o from '../ops.js';

/**
 * Softmax family from primitives. The subtracted max is held out of the backward pass: softmax
 * does not depend on it, so its gradient would be exactly zero — computing it would be waste.
 */
export function stableShift(x: Tensor, axis = -1): Tensor {
  return o.sub(x, o.stopGradient(o.reduceMax(x, [axis])));
}

export function softmax(x: Tensor, axis = -1): Tensor {
  const e = o.exp(stableShift(x, axis));
  return o.div(e, o.reduceSum(e, [axis]));
}

export function logSumExp(x: Tensor, axis = -1): Tensor {
  const m = o.stopGradient(o.reduceMax(x, [axis]));
  return o.add(o.log(o.reduceSum(o.exp(o.sub(x, m)), [axis])), m);
}

export function logSoftmax(x: Tensor, axis = -1): Tensor {
  const z = stableShift(x, axis);
  return o.sub(z, o.log(o.reduceSum(o.exp(z), [axis])));
}
