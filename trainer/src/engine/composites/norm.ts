import type { Tensor } from '../graph.js';
import * as o from '../ops.js';

/**
 * RMSNorm as Llama/Qwen write it: x · rsqrt(mean(x²) + ε) · weight, over the last axis, or over
 * `axis` −2 for feature-major heads [.., d, seq] (weight [d] then applies per row).
 */
export function rmsNorm(x: Tensor, weight: Tensor, eps: number, axis: -1 | -2 = -1): Tensor {
  const width = x.shape[x.rank + axis];
  // Σx² / n without materialising x² (a pass over the activations fewer) when the width is known.
  const meanSquare =
    typeof width === 'number' ? o.mul(o.reduceSumSquare(x, [axis]), 1 / width) : o.reduceMean(o.mul(x, x), [axis]);
  // One Pow, not Sqrt then Reciprocal: a node fewer forward, two fewer in the backward pass.
  return o.mul(o.mul(x, o.pow(o.add(meanSquare, eps), -0.5)), axis === -1 ? weight : o.unsqueeze(weight, [-1]));
}

/** x · sigmoid(x). */
export function silu(x: Tensor): Tensor {
  return o.mul(x, o.sigmoid(x));
}

/** The SwiGLU gate of Llama's MLP: silu(gate) · up. */
export function swiglu(gate: Tensor, up: Tensor): Tensor {
  return o.mul(silu(gate), up);
}
