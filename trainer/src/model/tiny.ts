import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseModelConfig, type Architecture, type ModelConfig } from './config.js';
import { modelConfigToHfJson } from './config-json.js';
import { byteLevelTokenizerJson, byteLevelVocabSize, CHATML_TEMPLATE, TINY_SPECIAL_TOKENS } from './byte-tokenizer.js';
import { writeJsonFile } from './files.js';
import { JsonObjectReader } from './json-reader.js';
import { expectedWeightShapes } from './layout.js';
import { consecutiveOffsets, plantPreviousTokenHeads } from './plant-heads.js';
import { createRng } from './random.js';
import { writeSafetensors } from './safetensors.js';
import { elementCount, type TensorMap } from './tensor.js';

export interface TinyWeightOptions {
  /**
   * Std of the embedding and output-head rows (default {@link defaultEmbeddingStd}); the HF golden
   * fixtures pin 0.02, the init they were generated with.
   */
  embeddingStd?: number;
  /**
   * Layer 0's query heads 0..N−1 start as previous-token heads at offsets 1..N (see plant-heads.ts;
   * qwen2 only). 0, the default, leaves the seeded weights as they are.
   */
  previousTokenHeads?: number;
  /** One previous-token head per offset, in this order (head h reads i − offsets[h]); instead of previousTokenHeads. */
  previousTokenOffsets?: readonly number[];
}

export interface TinyModelOptions extends TinyWeightOptions {
  architecture?: Architecture;
  seed?: number;
  hiddenSize?: number;
  numLayers?: number;
  numHeads?: number;
  numKvHeads?: number;
  /** Defaults to hiddenSize / numHeads; Qwen3 checkpoints often differ, so it can be set. */
  headDim?: number;
  intermediateSize?: number;
  /** Defaults to tied for Qwen (as their small checkpoints are), untied for Llama. */
  tieWordEmbeddings?: boolean;
  maxPositionEmbeddings?: number;
  /**
   * Byte-level BPE merges (see bpe-train.ts) the tokenizer applies after the bytes: each adds a
   * token, so text takes fewer tokens. None (the default) keeps one token per byte.
   */
  merges?: readonly (readonly [string, string])[];
}

/**
 * The name of the built-in tiny model (qwen2, seed 0): what `serve` calls it without --model and
 * what an adapter trained on it records as `base_model_name_or_path` (its files are only ever
 * written to a temp folder, so no path would stay valid). `init-tiny DIR` writes the same model.
 */
export const BUILTIN_TINY_MODEL_NAME = 'tiny';

const specialTokenId = (token: (typeof TINY_SPECIAL_TOKENS)[number]): number =>
  256 + TINY_SPECIAL_TOKENS.indexOf(token);
const END_OF_TEXT = specialTokenId('<|endoftext|>');
const IM_END = specialTokenId('<|im_end|>');

/** The tiny config, checked by the same parser as a downloaded `config.json` (errors use HF field names). */
export function tinyModelConfig(options: TinyModelOptions = {}): ModelConfig {
  const architecture = options.architecture ?? 'qwen2';
  const hiddenSize = options.hiddenSize ?? 64;
  const numHeads = options.numHeads ?? 4;
  const config: ModelConfig = {
    architecture,
    hiddenSize,
    intermediateSize: options.intermediateSize ?? 2 * hiddenSize,
    numLayers: options.numLayers ?? 2,
    numHeads,
    numKvHeads: options.numKvHeads ?? (numHeads % 2 === 0 ? numHeads / 2 : numHeads),
    headDim: options.headDim ?? hiddenSize / numHeads,
    vocabSize: byteLevelVocabSize(TINY_SPECIAL_TOKENS.length, options.merges),
    rmsNormEps: 1e-6,
    ropeTheta: 10_000,
    ropeScaling: null,
    maxPositionEmbeddings: options.maxPositionEmbeddings ?? 4096,
    tieWordEmbeddings: options.tieWordEmbeddings ?? architecture !== 'llama',
    attentionBias: architecture === 'qwen2',
    qkNorm: architecture === 'qwen3',
    bosTokenId: null,
    eosTokenIds: [IM_END, END_OF_TEXT],
    torchDtype: 'float32',
  };
  parseModelConfig(new JsonObjectReader('<tiny model options>', modelConfigToHfJson(config)));
  return config;
}

/**
 * Std of the embedding (and untied head) rows: 1.6/√hidden, 0.2 at the default width 64.
 *
 * Why not transformers' 0.02: behind the final RMSNorm the hidden state has norm ≈ √hidden, so a
 * head row of std σ scores a state aligned with it — the best any adapter can do — at most
 * σ·hidden. With σ = 0.02 and hidden 64 that cap is 1.3, while putting 99 % of the mass on one of
 * 259 tokens needs a margin of ≈ 10: no LoRA can fit data (real checkpoints get there through
 * trained norm weights). With σ = 1.6/√hidden the cap is 1.6·√hidden (12.8 at width 64, 9 at 32,
 * 25.6 at 256) and an unrelated state still scores std 1.6 whatever the width. (With a tied head the
 * untrained model favours repeating its input token, whose own row it is aligned with.)
 */
export function defaultEmbeddingStd(hiddenSize: number): number {
  return 1.6 / Math.sqrt(hiddenSize);
}

/**
 * Seeded weights: the decoder's matrices ~ N(0, 0.02²) as transformers initialises them, embedding
 * and head ~ N(0, embeddingStd²). Norm weights and biases are perturbed away from 1 and 0 so a
 * forward pass that forgot one would not match the reference. Planted previous-token heads, if
 * asked for, then replace part of layer 0's attention.
 */
export function tinyModelWeights(config: ModelConfig, seed: number, options: TinyWeightOptions = {}): TensorMap {
  const embeddingStd = options.embeddingStd ?? defaultEmbeddingStd(config.hiddenSize);
  if (!(embeddingStd > 0 && Number.isFinite(embeddingStd)))
    throw new RangeError(`embeddingStd must be a positive number (got ${embeddingStd})`);
  const rng = createRng(seed);
  const weights: TensorMap = new Map();
  for (const [name, shape] of expectedWeightShapes(config)) {
    const data = new Float32Array(elementCount(shape));
    const isNorm = name.endsWith('norm.weight');
    const std = name === 'model.embed_tokens.weight' || name === 'lm_head.weight' ? embeddingStd : 0.02;
    for (let i = 0; i < data.length; i++) {
      const noise = rng.normal();
      data[i] = isNorm ? 1 + 0.1 * noise : std * noise;
    }
    weights.set(name, { shape, data });
  }
  // After every seeded tensor, so no offsets draw nothing more and write the same bytes as before.
  const offsets = previousTokenOffsets(options);
  if (offsets.length > 0) plantPreviousTokenHeads(config, weights, offsets, rng);
  return weights;
}

/** The planted heads' offsets: the explicit list, else 1..previousTokenHeads; both at once is ambiguous. */
function previousTokenOffsets(options: TinyWeightOptions): readonly number[] {
  const { previousTokenHeads, previousTokenOffsets: offsets } = options;
  if (offsets !== undefined && (previousTokenHeads ?? 0) > 0)
    throw new RangeError('previous-token heads: give previousTokenHeads or previousTokenOffsets, not both');
  return offsets ?? consecutiveOffsets(previousTokenHeads ?? 0);
}

/** Writes a complete Hugging Face model folder; same options and seed give byte-identical files. */
export async function writeTinyModel(
  dir: string,
  options: TinyModelOptions = {},
): Promise<{ config: ModelConfig; files: string[] }> {
  const config = tinyModelConfig(options);
  const weights = tinyModelWeights(config, options.seed ?? 0, options);
  await mkdir(dir, { recursive: true });
  const files = {
    'config.json': modelConfigToHfJson(config),
    'generation_config.json': { eos_token_id: config.eosTokenIds, pad_token_id: END_OF_TEXT },
    'tokenizer.json': byteLevelTokenizerJson(TINY_SPECIAL_TOKENS, options.merges),
    'tokenizer_config.json': {
      tokenizer_class: 'PreTrainedTokenizerFast',
      bos_token: null,
      eos_token: '<|im_end|>',
      pad_token: '<|endoftext|>',
      unk_token: null,
      model_max_length: config.maxPositionEmbeddings,
      clean_up_tokenization_spaces: false,
      chat_template: CHATML_TEMPLATE,
    },
  };
  for (const [name, json] of Object.entries(files)) await writeJsonFile(join(dir, name), json);
  await writeSafetensors(join(dir, 'model.safetensors'), weights, { format: 'pt' });
  return { config, files: [...Object.keys(files), 'model.safetensors'].sort() };
}
