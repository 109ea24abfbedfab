import { attentionWithPast } from '../engine/composites/attention.js';
import { rmsNorm, swiglu } from '../engine/composites/norm.js';
import { applyQueryRope, applyRope, type RopeTables } from '../engine/composites/rope.js';
import type { Tensor } from '../engine/graph.js';
import * as o from '../engine/ops.js';
import type { ModelConfig } from '../model/config.js';
import { linearGroup, type LoraInputs } from '../graph/graph-linear.js';
import { linearModulePath, type LinearModule } from '../model/layout.js';

export interface CachedLayerContext {
  config: ModelConfig;
  weight(name: string): Tensor;
  lora(path: string): LoraInputs;
  rope: RopeTables;
  /** Additive bias broadcastable to [batch, kvHeads, groups, seq, past + seq]. */
  maskBias: Tensor;
}

export interface LayerCache {
  pastKey: Tensor;
  pastValue: Tensor;
}

/**
 * The decoder block of graph-layer.ts with a KV cache: keys and values of the new positions are
 * appended to the past ones before attention, and returned so the host can keep them. Every
 * linear layer is adapted; the adapter's scale is folded into B by the host, so the graph is the
 * same for every adapter (and for none: zeros). Heads stay head-major [batch, heads, seq, d] here,
 * unlike the training graph's feature-major ones: a decode step's head Transposes are one position
 * wide, so there is little to save, and the cache keeps its [batch, kvHeads, seq, d] layout.
 */
export function cachedDecoderLayer(
  c: CachedLayerContext,
  layer: number,
  h: Tensor,
  cache: LayerCache,
): { h: Tensor; key: Tensor; value: Tensor } {
  const prefix = `model.layers.${layer}`;
  const normed = rmsNorm(h, c.weight(`${prefix}.input_layernorm.weight`), c.config.rmsNormEps);
  const { out, key, value } = cachedSelfAttention(c, layer, normed, cache);
  const mid = o.add(h, out);
  const x = rmsNorm(mid, c.weight(`${prefix}.post_attention_layernorm.weight`), c.config.rmsNormEps);
  const gate = linear(c, layer, 'gate_proj', x);
  const up = linear(c, layer, 'up_proj', x);
  return { h: o.add(mid, linear(c, layer, 'down_proj', swiglu(gate, up))), key, value };
}

function linear(c: CachedLayerContext, layer: number, module: LinearModule, x: Tensor): Tensor {
  const path = linearModulePath(layer, module);
  const hasBias = c.config.attentionBias && (module === 'q_proj' || module === 'k_proj' || module === 'v_proj');
  // One part per call: linearGroup stacks A factors by their static rank, which is symbolic here.
  return linearGroup(x, [
    { weight: c.weight(`${path}.weight`), bias: hasBias ? c.weight(`${path}.bias`) : undefined, lora: c.lora(path) },
  ])[0]!;
}

function cachedSelfAttention(c: CachedLayerContext, layer: number, x: Tensor, cache: LayerCache) {
  const { numHeads, numKvHeads, headDim, rmsNormEps, qkNorm } = c.config;
  const prefix = `model.layers.${layer}.self_attn`;
  const heads = (projected: Tensor, n: number, norm?: string) => {
    let t = o.reshape(projected, [0, 0, n, headDim]);
    if (norm) t = rmsNorm(t, c.weight(`${prefix}.${norm}.weight`), rmsNormEps);
    return o.transpose(t, [0, 2, 1, 3]);
  };
  const q = applyQueryRope(heads(linear(c, layer, 'q_proj', x), numHeads, qkNorm ? 'q_norm' : undefined), c.rope);
  const key = applyRope(heads(linear(c, layer, 'k_proj', x), numKvHeads, qkNorm ? 'k_norm' : undefined), c.rope);
  const value = heads(linear(c, layer, 'v_proj', x), numKvHeads);
  const attended = attentionWithPast(
    q,
    { key: cache.pastKey, value: cache.pastValue },
    { key, value },
    c.maskBias,
    numKvHeads,
    true,
  );
  const merged = o.reshape(o.transpose(attended, [0, 2, 1, 3]), [0, 0, numHeads * headDim]);
  return { out: linear(c, layer, 'o_proj', merged), key, value };
}
