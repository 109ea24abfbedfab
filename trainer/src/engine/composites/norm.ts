import type { Tensor } from '../graph.js';
import * as o from '../ops.js';

/** RMSNorm over the last axis as Llama/Qwen write it: x · rsqrt(mean(x²) + ε) · weight. */
export function rmsNorm(x: Tensor, weight: Tensor, eps: number): Tensor {
  const meanSquare = o.reduceMean(o.mul(x, x), [-1]);
  return o.mul(o.mul(x, o.reciprocal(o.sqrt(o.add(meanSquare, eps)))), weight);
}

/** x · sigmoid(x). */
export function silu(x: Tensor): Tensor {
  return o.mul(x, o.sigmoid(x));
}

/** The SwiGLU gate of Llama's MLP: silu(gate) · up. */
export function swiglu(gate: Tensor, up: Tensor): Tensor {
  return o.mul(silu(gate), up);
}
