import type { Tensor } from '../engine/graph.js';
import { transposeLast2 } from '../engine/helpers.js';
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
 * `layout: 'features'` gives yᵀ = W·xᵀ [batch, out, seq] instead, which attention reads as
 * feature-major heads [batch, heads, d, seq] through a free Reshape. Its transposes swap a MatMul
 * operand's last two axes, which onnxruntime folds into the MatMul; the bottleneck stays row-major
 * so that A's gradient keeps its one-product form.
 *
 * The adapted parts' A factors run as one [Σ r, in] MatMul: a rank-r product is bound by reading
 * x, so one read serves them all, and the backward pass writes x's gradient from them once instead
 * of once per part plus an Add each to accumulate it. Base weights stay apart: stacking them would
 * need a Split of the wide output and a Concat of its gradient, passes over the widest tensors that
 * cost more than the wider MatMul saves (measured on q/k/v + gate/up).
 */
export function linearGroup(
  x: Tensor,
  parts: readonly LinearPart[],
  scale = 1,
  layout: 'rows' | 'features' = 'rows',
): Tensor[] {
  const adapted = parts.flatMap((p) => (p.lora ? [p.lora] : []));
  const downs = adapted.length > 0 ? bottleneck(x, adapted, scale) : [];
  const xT = layout === 'features' ? transposeLast2(x) : undefined;
  let next = 0;
  return parts.map((p) => {
    let y = xT ? o.matmul(p.weight, xT) : o.matmul(x, o.transpose(p.weight));
    if (p.bias) y = o.add(y, xT ? o.unsqueeze(p.bias, [-1]) : p.bias);
    if (!p.lora) return y;
    const down = downs[next++]!;
    return o.add(y, xT ? o.matmul(p.lora.b, transposeLast2(down)) : o.matmul(down, o.transpose(p.lora.b)));
  });
}

/** scale · x·Aᵀ for each adapter, from one MatMul over the stacked A factors. */
function bottleneck(x: Tensor, loras: readonly LoraInputs[], scale: number): Tensor[] {
  const a =
    loras.length === 1
      ? loras[0]!.a
      : o.concat(
          loras.map((l) => l.a),
          0,
        );
  const down = o.matmul(x, o.transpose(a));
  const scaled = scale === 1 ? down : o.mul(down, scale);
  return loras.length === 1
    ? [scaled]
    : o.split(
        scaled,
        loras.map((l) => l.a.shape[0] as number),
        -1,
      );
}
