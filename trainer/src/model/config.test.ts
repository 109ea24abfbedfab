import { describe, expect, it } from 'vitest';
import { parseModelConfigText, type ModelConfig } from './config.js';
import { modelConfigToHfJson } from './config-json.js';
import { tinyModelConfig } from './tiny.js';

// Trimmed from the real Hub configs of these checkpoints.
const llama32 = {
  architectures: ['LlamaForCausalLM'],
  model_type: 'llama',
  hidden_size: 2048,
  intermediate_size: 8192,
  num_hidden_layers: 16,
  num_attention_heads: 32,
  num_key_value_heads: 8,
  head_dim: 64,
  vocab_size: 128256,
  rms_norm_eps: 1e-5,
  rope_theta: 500000.0,
  max_position_embeddings: 131072,
  tie_word_embeddings: true,
  attention_bias: false,
  mlp_bias: false,
  hidden_act: 'silu',
  bos_token_id: 128000,
  eos_token_id: [128001, 128008, 128009],
  torch_dtype: 'bfloat16',
  rope_scaling: {
    factor: 32.0,
    high_freq_factor: 4.0,
    low_freq_factor: 1.0,
    original_max_position_embeddings: 8192,
    rope_type: 'llama3',
  },
};
const qwen25 = {
  architectures: ['Qwen2ForCausalLM'],
  model_type: 'qwen2',
  hidden_size: 896,
  intermediate_size: 4864,
  num_hidden_layers: 24,
  num_attention_heads: 14,
  num_key_value_heads: 2,
  vocab_size: 151936,
  rms_norm_eps: 1e-6,
  rope_theta: 1000000.0,
  max_position_embeddings: 32768,
  tie_word_embeddings: true,
  use_sliding_window: false,
  sliding_window: 32768,
  hidden_act: 'silu',
  bos_token_id: 151643,
  eos_token_id: 151645,
  torch_dtype: 'bfloat16',
  rope_scaling: null,
};
const qwen3 = {
  architectures: ['Qwen3ForCausalLM'],
  model_type: 'qwen3',
  hidden_size: 1024,
  intermediate_size: 3072,
  num_hidden_layers: 28,
  num_attention_heads: 16,
  num_key_value_heads: 8,
  head_dim: 128,
  vocab_size: 151936,
  rms_norm_eps: 1e-6,
  rope_theta: 1000000,
  max_position_embeddings: 40960,
  tie_word_embeddings: true,
  attention_bias: false,
  hidden_act: 'silu',
  bos_token_id: 151643,
  eos_token_id: 151645,
  torch_dtype: 'bfloat16',
  rope_scaling: null,
};

const parse = (json: unknown) => parseModelConfigText(JSON.stringify(json), '/models/x/config.json');
const without = (json: Record<string, unknown>, key: string) =>
  Object.fromEntries(Object.entries(json).filter(([k]) => k !== key));

describe('parseModelConfig', () => {
  it('normalises a Llama 3.2 config with llama3 RoPE scaling', () => {
    expect(parse(llama32)).toEqual<ModelConfig>({
      architecture: 'llama',
      hiddenSize: 2048,
      intermediateSize: 8192,
      numLayers: 16,
      numHeads: 32,
      numKvHeads: 8,
      headDim: 64,
      vocabSize: 128256,
      rmsNormEps: 1e-5,
      ropeTheta: 500000,
      ropeScaling: {
        type: 'llama3',
        factor: 32,
        lowFreqFactor: 1,
        highFreqFactor: 4,
        originalMaxPositionEmbeddings: 8192,
      },
      maxPositionEmbeddings: 131072,
      tieWordEmbeddings: true,
      attentionBias: false,
      qkNorm: false,
      bosTokenId: 128000,
      eosTokenIds: [128001, 128008, 128009],
      torchDtype: 'bfloat16',
    });
  });

  it('gives Qwen2 q/k/v biases and derives head_dim from hidden_size', () => {
    const config = parse(qwen25);
    expect(config).toMatchObject({
      architecture: 'qwen2',
      headDim: 64,
      attentionBias: true,
      qkNorm: false,
      ropeScaling: null,
      eosTokenIds: [151645],
    });
  });

  it('gives Qwen3 q/k norms and keeps its explicit head_dim', () => {
    expect(parse(qwen3)).toMatchObject({
      architecture: 'qwen3',
      headDim: 128,
      numHeads: 16,
      attentionBias: false,
      qkNorm: true,
    });
  });

  it('applies transformers defaults for optional fields', () => {
    const minimal = {
      architectures: ['LlamaForCausalLM'],
      hidden_size: 64,
      intermediate_size: 128,
      num_hidden_layers: 2,
      num_attention_heads: 4,
      vocab_size: 300,
    };
    expect(parse(minimal)).toMatchObject({
      numKvHeads: 4,
      rmsNormEps: 1e-6,
      ropeTheta: 10000,
      maxPositionEmbeddings: 2048,
      tieWordEmbeddings: false,
      bosTokenId: null,
      eosTokenIds: [],
      torchDtype: 'float32',
    });
  });

  it('reads transformers 5 rope_parameters and dtype', () => {
    const v5 = {
      ...without(qwen3, 'torch_dtype'),
      dtype: 'float16',
      layer_types: ['full_attention', 'full_attention'],
      rope_parameters: { rope_type: 'linear', factor: 2, rope_theta: 5000 },
    };
    expect(parse(v5)).toMatchObject({
      ropeTheta: 5000,
      ropeScaling: { type: 'linear', factor: 2 },
      torchDtype: 'float16',
    });
  });

  it('falls back to model_type when architectures is absent', () => {
    expect(parse({ ...without(qwen3, 'architectures') }).architecture).toBe('qwen3');
  });

  it('round-trips through the config.json it writes', () => {
    for (const config of [parse(llama32), parse(qwen25), tinyModelConfig({ architecture: 'qwen3', headDim: 32 })]) {
      expect(parse(modelConfigToHfJson(config))).toEqual(config);
    }
  });
});

describe('parseModelConfig errors name the file and field', () => {
  const cases: [string, unknown, string][] = [
    ['bad JSON', '{"hidden_size": ', 'config.json: is not valid JSON'],
    ['not an object', [1, 2], 'config.json: must hold a JSON object (got [1,2])'],
    [
      'unknown architecture',
      { ...qwen3, architectures: ['MistralForCausalLM'] },
      'config.json: architectures ["MistralForCausalLM"] is not supported (supported: LlamaForCausalLM, Qwen2ForCausalLM, Qwen3ForCausalLM)',
    ],
    [
      'unknown model_type',
      { ...without(qwen3, 'architectures'), model_type: 'gpt2' },
      'config.json: model_type "gpt2" is not supported',
    ],
    [
      'string head count',
      { ...qwen3, num_attention_heads: 'x' },
      'config.json: num_attention_heads must be a positive integer (got "x")',
    ],
    [
      'missing hidden_size',
      without(qwen3, 'hidden_size'),
      'config.json: hidden_size is missing (expected a positive integer)',
    ],
    [
      'fractional layers',
      { ...qwen3, num_hidden_layers: 2.5 },
      'config.json: num_hidden_layers must be a positive integer (got 2.5)',
    ],
    [
      'kv heads not dividing',
      { ...qwen3, num_key_value_heads: 5 },
      'config.json: num_key_value_heads must divide num_attention_heads (5 does not divide 16)',
    ],
    [
      'hidden not divisible',
      { ...without(qwen25, 'num_key_value_heads'), num_attention_heads: 13 },
      'config.json: hidden_size must be a multiple of num_attention_heads',
    ],
    ['odd head_dim', { ...qwen3, head_dim: 7 }, 'config.json: head_dim must be even for RoPE (got 7)'],
    ['negative eps', { ...qwen3, rms_norm_eps: -1 }, 'config.json: rms_norm_eps must be a positive number (got -1)'],
    [
      'tie not boolean',
      { ...qwen3, tie_word_embeddings: 'yes' },
      'config.json: tie_word_embeddings must be true or false (got "yes")',
    ],
    [
      'eos outside vocab',
      { ...qwen3, eos_token_id: [151645, 999999] },
      'config.json: eos_token_id holds 999999, outside the vocabulary',
    ],
    [
      'eos not an id',
      { ...qwen3, eos_token_id: 'eos' },
      'config.json: eos_token_id must be a token id or a list of token ids (got "eos")',
    ],
    [
      'unsupported RoPE',
      { ...qwen3, rope_scaling: { rope_type: 'yarn', factor: 4 } },
      'config.json: rope_scaling.rope_type "yarn" is not supported (supported: default, linear, llama3)',
    ],
    [
      'legacy type key',
      { ...qwen3, rope_scaling: { type: 'dynamic', factor: 4 } },
      'config.json: rope_scaling.type "dynamic" is not supported',
    ],
    [
      'linear without factor',
      { ...qwen3, rope_scaling: { rope_type: 'linear' } },
      'config.json: rope_scaling.factor is missing (expected a positive number)',
    ],
    [
      'llama3 bad band',
      { ...llama32, rope_scaling: { ...llama32.rope_scaling, high_freq_factor: 0.5 } },
      'config.json: rope_scaling.high_freq_factor must be larger than low_freq_factor',
    ],
    ['gelu', { ...qwen3, hidden_act: 'gelu' }, 'config.json: hidden_act "gelu" is not supported'],
    ['mlp bias', { ...llama32, mlp_bias: true }, 'config.json: mlp_bias true is not supported'],
    [
      'llama attention bias',
      { ...llama32, attention_bias: true },
      'config.json: attention_bias true is not supported for llama',
    ],
    [
      'sliding window',
      { ...qwen25, use_sliding_window: true },
      'config.json: use_sliding_window true is not supported',
    ],
    [
      'sliding layers',
      { ...qwen3, layer_types: ['full_attention', 'sliding_attention'] },
      'config.json: layer_types must all be "full_attention" (got ["full_attention","sliding_attention"])',
    ],
    [
      'unknown dtype',
      { ...qwen3, torch_dtype: 'int8' },
      'config.json: torch_dtype "int8" is not supported (supported: float32, float16, bfloat16)',
    ],
  ];
  it.each(cases)('%s', (_label, json, message) => {
    const text = typeof json === 'string' ? json : JSON.stringify(json);
    expect(() => parseModelConfigText(text, '/models/x/config.json')).toThrow(
      `/models/x/config.json: ${message.replace(/^config\.json: /, '')}`,
    );
  });

  it('raises a ModelFileError carrying the file and field', () => {
    try {
      parse({ ...qwen3, vocab_size: 0 });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({
        name: 'ModelFileError',
        code: 'VALIDATION_ERROR',
        file: '/models/x/config.json',
        field: 'vocab_size',
      });
    }
  });
});
