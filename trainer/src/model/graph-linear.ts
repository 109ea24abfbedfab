import type { Tensor } from '../engine/graph.js';
import * as o from '../engine/ops.js';

/** A LoRA pair as graph inputs: A [rank, in], B [out, rank] in PEFT's layout. */
export interface LoraInputs {
  a: Tensor;
  b: Tensor;
}

/** One linear layer of a group that reads the same input (q/k/v, gate/up). */
export interface LinearPart {
  weight: Tensor;
  bias?: Tensor | undefined;
  lora?: LoraInputs | undefined;
}

/**
 * Linear layers that read the same input, each y = x·Wᵀ (+ bias) (+ scale · (x·Aᵀ)·Bᵀ). W stays in
 * PyTorch's [out, in] layout as an initializer; onnxruntime folds its transpose once at session
 * creation. The adapter path goes through the rank-r bottleneck first (cost r·(in + out) per token).
 *
 * The adapted parts' A factors run as one [Σ r, in] MatMul: a rank-r product is bound by reading
 * x, so one read serves them all, and the backward pass writes x's gradient from them once instead
 * of once per part plus an Add each to accumulate it. Base weights stay apart: stacking them would
 * need a Split of the wide output and a Concat of its gradient, passes over the widest tensors that
 * cost more than the wider MatMul saves (measured on q/k/v + gate/up).
 */
export function linearGroup(x: Tensor, parts: readonly LinearPart[], scale = 1): Tensor[] {
  const adapted = parts.flatMap((p) => (p.lora ? [p.lora] : []));
  const downs = adapted.length > 0 ? bottleneck(x, adapted, scale) : [];
  let next = 0;
  return parts.map((p) => {
    let y = o.matmul(x, o.transpose(p.weight));
    if (p.bias) y = o.add(y, p.bias);
    return p.lora ? o.add(y, o.matmul(downs[next++]!, o.transpose(p.lora.b))) : y;
  });
}

/** scale · x·Aᵀ for each adapter, from one MatMul over the stacked A factors. */
function bottleneck(x: Tensor, loras: readonly LoraInputs[], scale: number): Tensor[] {
  const a = loras.length === 1 ? loras[0]!.a : o.concat(loras.map((l) => l.a), 0);
  const down = o.matmul(x, o.transpose(a));
  const scaled = scale === 1 ? down : o.mul(down, scale);
  return loras.length === 1 ? [scaled] : o.split(scaled, loras.map((l) => l.a.shape[0] as number), -1);
}
