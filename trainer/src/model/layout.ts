import type { ModelConfig } from './config.js';

/** The seven linear layers of a decoder block, in PEFT's module naming. */
export const LINEAR_MODULES = ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'] as const;
export type LinearModule = (typeof LINEAR_MODULES)[number];

const ATTENTION_MODULES: ReadonlySet<LinearModule> = new Set(['q_proj', 'k_proj', 'v_proj', 'o_proj']);

/** `model.layers.3.self_attn.q_proj`: the module path weights, LoRA keys and PEFT keys derive from. */
export function linearModulePath(layer: number, module: LinearModule): string {
  return `model.layers.${layer}.${ATTENTION_MODULES.has(module) ? 'self_attn' : 'mlp'}.${module}`;
}

/** A linear layer's weight is [outFeatures, inFeatures] (PyTorch's nn.Linear layout). */
export function linearFeatures(config: ModelConfig, module: LinearModule): { inFeatures: number; outFeatures: number } {
  const queryWidth = config.numHeads * config.headDim;
  const keyValueWidth = config.numKvHeads * config.headDim;
  switch (module) {
    case 'q_proj':
      return { inFeatures: config.hiddenSize, outFeatures: queryWidth };
    case 'k_proj':
    case 'v_proj':
      return { inFeatures: config.hiddenSize, outFeatures: keyValueWidth };
    case 'o_proj':
      return { inFeatures: queryWidth, outFeatures: config.hiddenSize };
    case 'gate_proj':
    case 'up_proj':
      return { inFeatures: config.hiddenSize, outFeatures: config.intermediateSize };
    case 'down_proj':
      return { inFeatures: config.intermediateSize, outFeatures: config.hiddenSize };
  }
}

/**
 * Every tensor a config needs, by Hugging Face name, with its shape, in checkpoint order.
 * `lm_head.weight` is absent when the head is tied to the embedding.
 */
export function expectedWeightShapes(config: ModelConfig): Map<string, number[]> {
  const shapes = new Map<string, number[]>();
  shapes.set('model.embed_tokens.weight', [config.vocabSize, config.hiddenSize]);
  for (let layer = 0; layer < config.numLayers; layer++) {
    const prefix = `model.layers.${layer}`;
    shapes.set(`${prefix}.input_layernorm.weight`, [config.hiddenSize]);
    for (const module of LINEAR_MODULES) {
      const { inFeatures, outFeatures } = linearFeatures(config, module);
      shapes.set(`${linearModulePath(layer, module)}.weight`, [outFeatures, inFeatures]);
      if (config.attentionBias && (module === 'q_proj' || module === 'k_proj' || module === 'v_proj')) {
        shapes.set(`${linearModulePath(layer, module)}.bias`, [outFeatures]);
      }
    }
    if (config.qkNorm) {
      shapes.set(`${prefix}.self_attn.q_norm.weight`, [config.headDim]);
      shapes.set(`${prefix}.self_attn.k_norm.weight`, [config.headDim]);
    }
    shapes.set(`${prefix}.post_attention_layernorm.weight`, [config.hiddenSize]);
  }
  shapes.set('model.norm.weight', [config.hiddenSize]);
  if (!config.tieWordEmbeddings) shapes.set('lm_head.weight', [config.vocabSize, config.hiddenSize]);
  return shapes;
}

/** The output projection: `lm_head.weight`, or the embedding when tied. */
export function outputHeadName(config: ModelConfig): string {
  return config.tieWordEmbeddings ? 'model.embed_tokens.weight' : 'lm_head.weight';
}
