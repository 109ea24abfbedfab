import type { Tensor } from '../engine/graph.js';
import * as o from '../engine/ops.js';

/** A LoRA pair as graph inputs: A [rank, in], B [out, rank] in PEFT's layout. */
export interface LoraInputs {
  a: Tensor;
  b: Tensor;
}

/**
 * y = x·Wᵀ (+ bias) (+ scale · (x·Aᵀ)·Bᵀ). W stays in PyTorch's [out, in] layout as an
 * initializer; onnxruntime folds its transpose once at session creation. The adapter path goes
 * through the rank-r bottleneck first, so its cost is r·(in + out) per token.
 */
export function linear(x: Tensor, weight: Tensor, bias?: Tensor, lora?: LoraInputs, scale = 1): Tensor {
  let y = o.matmul(x, o.transpose(weight));
  if (bias) y = o.add(y, bias);
  if (!lora) return y;
  const down = o.matmul(x, o.transpose(lora.a));
  return o.add(y, o.matmul(o.mul(down, scale), o.transpose(lora.b)));
}
