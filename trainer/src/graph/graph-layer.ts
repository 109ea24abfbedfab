import { attentionFeatureMajor } from '../engine/composites/attention.js';
import { rmsNorm, swiglu } from '../engine/composites/norm.js';
import type { RopeTables } from '../engine/composites/rope.js';
import { applyQueryRopeFeatureMajor, applyRopeFeatureMajor } from '../engine/composites/rope.js';
import type { Tensor } from '../engine/graph.js';
import { transposeLast2 } from '../engine/helpers.js';
import * as o from '../engine/ops.js';
import type { ModelConfig } from '../model/config.js';
import type { LinearPart, LoraInputs } from './graph-linear.js';
import { linearGroup } from './graph-linear.js';
import { linearModulePath, type LinearModule } from '../model/layout.js';

export interface LayerContext {
  config: ModelConfig;
  /** A base weight by Hugging Face name, as a graph initializer. */
  weight(name: string): Tensor;
  /** The adapter pair for a module path, when that module is adapted. */
  lora(path: string): LoraInputs | undefined;
  loraScale: number;
  rope: RopeTables;
  /** Additive attention bias, broadcastable to [batch, kvHeads, groups, seq, seq]. */
  maskBias: Tensor;
}

/** One pre-norm decoder block: h + attn(norm(h)), then + mlp(norm(h)). */
export function decoderLayer(c: LayerContext, layer: number, h: Tensor): Tensor {
  const prefix = `model.layers.${layer}`;
  const attended = selfAttention(
    c,
    layer,
    rmsNorm(h, c.weight(`${prefix}.input_layernorm.weight`), c.config.rmsNormEps),
  );
  const mid = o.add(h, attended);
  const normed = rmsNorm(mid, c.weight(`${prefix}.post_attention_layernorm.weight`), c.config.rmsNormEps);
  const [gate, up] = project(c, layer, ['gate_proj', 'up_proj'], normed) as [Tensor, Tensor];
  return o.add(mid, project(c, layer, ['down_proj'], swiglu(gate, up))[0]!);
}

/** The named linear layers of one block applied to x (one input, so their LoRA A factors share a MatMul). */
function project(
  c: LayerContext,
  layer: number,
  modules: readonly LinearModule[],
  x: Tensor,
  layout: 'rows' | 'features' = 'rows',
): Tensor[] {
  const parts = modules.map((module): LinearPart => {
    const path = linearModulePath(layer, module);
    const hasBias = c.config.attentionBias && (module === 'q_proj' || module === 'k_proj' || module === 'v_proj');
    return {
      weight: c.weight(`${path}.weight`),
      bias: hasBias ? c.weight(`${path}.bias`) : undefined,
      lora: c.lora(path),
    };
  });
  return linearGroup(x, parts, c.loraScale, layout);
}

/**
 * Attention with feature-major heads: q, k, v are projected as W·xᵀ [batch, heads·d, seq] and read
 * as [batch, heads, d, seq] by a Reshape, and o_proj reads the result through a transposed MatMul
 * operand, so no 4-D head Transpose runs in either direction (see attentionFeatureMajor).
 */
function selfAttention(c: LayerContext, layer: number, x: Tensor): Tensor {
  const { numHeads, numKvHeads, headDim, rmsNormEps } = c.config;
  const prefix = `model.layers.${layer}.self_attn`;
  const [qx, kx, vx] = project(c, layer, ['q_proj', 'k_proj', 'v_proj'], x, 'features') as [Tensor, Tensor, Tensor];
  // Qwen3 normalises each head (over d, axis −2 here) before RoPE.
  const heads = (projected: Tensor, n: number, norm?: string) => {
    const t = o.reshape(projected, [0, n, headDim, -1]);
    return norm ? rmsNorm(t, c.weight(`${prefix}.${norm}.weight`), rmsNormEps, -2) : t;
  };
  const q = applyQueryRopeFeatureMajor(heads(qx, numHeads, c.config.qkNorm ? 'q_norm' : undefined), c.rope);
  const k = applyRopeFeatureMajor(heads(kx, numKvHeads, c.config.qkNorm ? 'k_norm' : undefined), c.rope);
  const out = attentionFeatureMajor(q, k, heads(vx, numKvHeads), c.maskBias, numKvHeads);
  return project(c, layer, ['o_proj'], transposeLast2(out))[0]!;
}
