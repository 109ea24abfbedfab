import { ARCHITECTURE_CLASSES, type ModelConfig } from './config.js';
import type { RopeScaling } from './rope.js';

/**
 * The Hugging Face `config.json` for a config, in the shape transformers 4.x writes, so stock
 * transformers / vLLM / PEFT load folders we write (tiny models, merged exports).
 */
export function modelConfigToHfJson(config: ModelConfig): Record<string, unknown> {
  const eos = config.eosTokenIds.length === 1 ? config.eosTokenIds[0] : config.eosTokenIds;
  return {
    architectures: [ARCHITECTURE_CLASSES[config.architecture]],
    model_type: config.architecture,
    hidden_size: config.hiddenSize,
    intermediate_size: config.intermediateSize,
    num_hidden_layers: config.numLayers,
    num_attention_heads: config.numHeads,
    num_key_value_heads: config.numKvHeads,
    head_dim: config.headDim,
    vocab_size: config.vocabSize,
    hidden_act: 'silu',
    rms_norm_eps: config.rmsNormEps,
    rope_theta: config.ropeTheta,
    rope_scaling: config.ropeScaling === null ? null : ropeScalingToHf(config.ropeScaling),
    max_position_embeddings: config.maxPositionEmbeddings,
    tie_word_embeddings: config.tieWordEmbeddings,
    ...(config.architecture === 'qwen2' ? { use_sliding_window: false } : { attention_bias: false, mlp_bias: false }),
    bos_token_id: config.bosTokenId,
    eos_token_id: config.eosTokenIds.length === 0 ? null : eos,
    torch_dtype: config.torchDtype,
  };
}

function ropeScalingToHf(scaling: RopeScaling): Record<string, unknown> {
  if (scaling.type === 'linear') return { rope_type: 'linear', factor: scaling.factor };
  return {
    rope_type: 'llama3',
    factor: scaling.factor,
    low_freq_factor: scaling.lowFreqFactor,
    high_freq_factor: scaling.highFreqFactor,
    original_max_position_embeddings: scaling.originalMaxPositionEmbeddings,
  };
}
