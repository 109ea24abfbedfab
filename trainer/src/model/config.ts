import { join } from 'node:path';
import { JsonObjectReader, describeValue } from './json-reader.js';
import { parseRopeScaling, type RopeScaling } from './rope.js';

export type { RopeScaling } from './rope.js';

/** The Llama-family decoders we run, by their short name (also the CLI's `--arch`). */
export type Architecture = 'llama' | 'qwen2' | 'qwen3';

export const ARCHITECTURE_CLASSES: Readonly<Record<Architecture, string>> = {
  llama: 'LlamaForCausalLM',
  qwen2: 'Qwen2ForCausalLM',
  qwen3: 'Qwen3ForCausalLM',
};

export type TorchDtype = 'float32' | 'float16' | 'bfloat16';
const TORCH_DTYPES: readonly TorchDtype[] = ['float32', 'float16', 'bfloat16'];

/** A Hugging Face `config.json` reduced to what the forward pass needs, with defaults applied. */
export interface ModelConfig {
  architecture: Architecture;
  hiddenSize: number;
  intermediateSize: number;
  numLayers: number;
  numHeads: number;
  numKvHeads: number;
  headDim: number;
  vocabSize: number;
  rmsNormEps: number;
  ropeTheta: number;
  ropeScaling: RopeScaling | null;
  maxPositionEmbeddings: number;
  tieWordEmbeddings: boolean;
  /** q/k/v projections carry a bias (Qwen2); o_proj never does. */
  attentionBias: boolean;
  /** Per-head RMSNorm of q and k before RoPE (Qwen3). */
  qkNorm: boolean;
  bosTokenId: number | null;
  eosTokenIds: number[];
  torchDtype: TorchDtype;
}

export async function readModelConfig(dir: string): Promise<ModelConfig> {
  return parseModelConfig(await JsonObjectReader.read(join(dir, 'config.json')));
}

export function parseModelConfigText(text: string, file = 'config.json'): ModelConfig {
  return parseModelConfig(JsonObjectReader.parse(file, text));
}

export function parseModelConfig(json: JsonObjectReader): ModelConfig {
  const architecture = readArchitecture(json);
  rejectUnsupportedFeatures(json, architecture);
  const hiddenSize = json.positiveInt('hidden_size');
  const numHeads = json.positiveInt('num_attention_heads');
  const numKvHeads = json.positiveInt('num_key_value_heads', numHeads);
  if (numHeads % numKvHeads !== 0) {
    throw json.fail(
      'num_key_value_heads',
      `must divide num_attention_heads (${numKvHeads} does not divide ${numHeads})`,
    );
  }
  if (!json.has('head_dim') && hiddenSize % numHeads !== 0) {
    throw json.fail(
      'hidden_size',
      `must be a multiple of num_attention_heads when head_dim is absent (${hiddenSize} vs ${numHeads})`,
    );
  }
  const headDim = json.positiveInt('head_dim', hiddenSize / numHeads);
  if (headDim % 2 !== 0) throw json.fail('head_dim', `must be even for RoPE (got ${headDim})`);
  // transformers 5.x moves theta and scaling into `rope_parameters`.
  const ropeSection = json.optionalObject('rope_parameters');
  const vocabSize = json.positiveInt('vocab_size');
  return {
    architecture,
    hiddenSize,
    intermediateSize: json.positiveInt('intermediate_size'),
    numLayers: json.positiveInt('num_hidden_layers'),
    numHeads,
    numKvHeads,
    headDim,
    vocabSize,
    rmsNormEps: json.positiveNumber('rms_norm_eps', 1e-6),
    ropeTheta: ropeSection?.has('rope_theta')
      ? ropeSection.positiveNumber('rope_theta')
      : json.positiveNumber('rope_theta', 10_000),
    ropeScaling: parseRopeScaling(ropeSection ?? json.optionalObject('rope_scaling')),
    maxPositionEmbeddings: json.positiveInt('max_position_embeddings', architecture === 'llama' ? 2048 : 32_768),
    tieWordEmbeddings: json.boolean('tie_word_embeddings', false),
    attentionBias: architecture === 'qwen2',
    qkNorm: architecture === 'qwen3',
    bosTokenId: readTokenIds(json, 'bos_token_id', vocabSize)[0] ?? null,
    eosTokenIds: readTokenIds(json, 'eos_token_id', vocabSize),
    torchDtype: readDtype(json),
  };
}

function readArchitecture(json: JsonObjectReader): Architecture {
  const known = Object.entries(ARCHITECTURE_CLASSES) as [Architecture, string][];
  const supported = known.map(([, cls]) => cls).join(', ');
  if (json.has('architectures')) {
    const classes = json.raw('architectures');
    if (!Array.isArray(classes) || classes.length === 0) {
      throw json.fail('architectures', `must be a non-empty list of class names (got ${describeValue(classes)})`);
    }
    const match = known.find(([, cls]) => classes.includes(cls));
    if (!match)
      throw json.fail('architectures', `${describeValue(classes)} is not supported (supported: ${supported})`);
    return match[0];
  }
  const modelType = json.string('model_type');
  const match = known.find(([name]) => name === modelType);
  if (!match)
    throw json.fail(
      'model_type',
      `${describeValue(modelType)} is not supported (supported: ${known.map(([n]) => n).join(', ')})`,
    );
  return match[0];
}

// Checkpoints using these would need pieces the forward does not have; failing here beats wrong logits.
function rejectUnsupportedFeatures(json: JsonObjectReader, architecture: Architecture): void {
  const activation = json.string('hidden_act', 'silu');
  if (activation !== 'silu')
    throw json.fail('hidden_act', `${describeValue(activation)} is not supported (only "silu", as in SwiGLU)`);
  if (json.boolean('mlp_bias', false))
    throw json.fail('mlp_bias', 'true is not supported (MLP projections without bias only)');
  if (architecture !== 'qwen2' && json.boolean('attention_bias', false)) {
    throw json.fail('attention_bias', `true is not supported for ${architecture} (it would add an o_proj bias)`);
  }
  if (json.boolean('use_sliding_window', false))
    throw json.fail('use_sliding_window', 'true is not supported (full causal attention only)');
  // transformers 5 lists each layer's attention kind; anything but full attention needs a window we lack.
  const layerTypes = json.raw('layer_types');
  if (Array.isArray(layerTypes) && layerTypes.some((t) => t !== 'full_attention')) {
    throw json.fail('layer_types', `must all be "full_attention" (got ${describeValue([...new Set(layerTypes)])})`);
  }
}

function readTokenIds(json: JsonObjectReader, key: string, vocabSize: number): number[] {
  if (!json.has(key)) return [];
  const value = json.raw(key);
  const ids = Array.isArray(value) ? value : [value];
  for (const id of ids) {
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) {
      throw json.fail(key, `must be a token id or a list of token ids (got ${describeValue(value)})`);
    }
    if (id >= vocabSize) throw json.fail(key, `holds ${id}, outside the vocabulary (vocab_size ${vocabSize})`);
  }
  return ids as number[];
}

function readDtype(json: JsonObjectReader): TorchDtype {
  // transformers 5.x writes `dtype`, earlier versions `torch_dtype`.
  const key = json.has('dtype') ? 'dtype' : 'torch_dtype';
  const value = json.string(key, 'float32');
  if (!(TORCH_DTYPES as readonly string[]).includes(value)) {
    throw json.fail(key, `${describeValue(value)} is not supported (supported: ${TORCH_DTYPES.join(', ')})`);
  }
  return value as TorchDtype;
}
