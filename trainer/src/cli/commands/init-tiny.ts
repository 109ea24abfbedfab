import { resolve } from 'node:path';
import type { Architecture, ModelConfig } from '../../model/config.js';
import { expectedWeightShapes } from '../../model/layout.js';
import { elementCount } from '../../model/tensor.js';
import { learnByteLevelMerges } from '../../model/bpe-train.js';
import { TINY_SPECIAL_TOKENS } from '../../model/byte-tokenizer.js';
import { readTextFile } from '../../model/files.js';
import { consecutiveOffsets } from '../../model/plant-heads.js';
import { tinyModelConfig, writeTinyModel } from '../../model/tiny.js';
import { readSftJsonl } from '../../train/sft-data.js';
import { defineCommand, UsageError, type CommandContext } from '../command.js';
import { prepareOutputDir } from '../output-dir.js';
import { formatCount } from '../table.js';

/** 256 bytes and the three special tokens: the vocabulary without merges. */
const BYTE_VOCAB_SIZE = 256 + TINY_SPECIAL_TOKENS.length;
const DEFAULT_VOCAB_SIZE = 2048;

const ARCHITECTURES: readonly Architecture[] = ['llama', 'qwen2', 'qwen3'];

export const initTinyCommand = defineCommand({
  name: 'init-tiny',
  summary: 'Write a tiny model folder (seeded random weights, byte-level BPE tokenizer, ChatML template)',
  description: [
    'Writes a complete Hugging Face model folder small enough to train on 2 CPU cores: config.json,',
    'model.safetensors (seeded random float32 weights), a byte-level tokenizer.json (token id = byte,',
    'plus <|endoftext|>, <|im_start|>, <|im_end|>), tokenizer_config.json with a ChatML chat template',
    'and generation_config.json. The same options and seed always write byte-identical files.',
    '',
    'With --vocab-from, the tokenizer also learns byte-level BPE merges from a data file (SFT JSONL',
    "or plain text), as tokenizers' BpeTrainer does, up to --vocab-size tokens: text then takes",
    '3-4x fewer tokens, so a tiny model trains on the same data in a fraction of the time and needs',
    'to look back fewer positions.',
  ].join('\n'),
  positionals: [{ name: 'dir', help: 'Folder to write (created if missing)' }],
  options: {
    arch: {
      kind: 'string',
      valueName: 'NAME',
      help: 'Architecture: llama, qwen2 (q/k/v bias) or qwen3 (q/k norm)',
      choices: ARCHITECTURES,
      default: 'qwen2',
    },
    seed: { kind: 'integer', min: 0, default: 0, valueName: 'N', help: 'Seed for the random weights' },
    'hidden-size': {
      kind: 'integer',
      min: 1,
      valueName: 'N',
      help: 'Width of the residual stream',
      defaultText: '64',
    },
    layers: { kind: 'integer', min: 1, valueName: 'N', help: 'Number of decoder layers', defaultText: '2' },
    heads: { kind: 'integer', min: 1, valueName: 'N', help: 'Attention (query) heads', defaultText: '4' },
    'kv-heads': {
      kind: 'integer',
      min: 1,
      valueName: 'N',
      help: 'Key/value heads (grouped-query attention); must divide --heads',
      defaultText: 'heads / 2',
    },
    'head-dim': {
      kind: 'integer',
      min: 1,
      valueName: 'N',
      help: 'Width of one head; must be even',
      defaultText: 'hidden-size / heads',
    },
    'intermediate-size': {
      kind: 'integer',
      min: 1,
      valueName: 'N',
      help: 'Width of the SwiGLU MLP',
      defaultText: '2 × hidden-size',
    },
    'max-positions': {
      kind: 'integer',
      min: 1,
      valueName: 'N',
      help: 'max_position_embeddings: the longest sequence the model takes (RoPE; no weights depend on it)',
      defaultText: '4096',
    },
    'tie-embeddings': {
      kind: 'string',
      valueName: 'true|false',
      choices: ['true', 'false'],
      help: 'Share the embedding matrix with the output head',
      defaultText: 'true for qwen2/qwen3, false for llama',
    },
    'prev-token-heads': {
      kind: 'integer',
      min: 0,
      default: 0,
      valueName: 'N',
      help: "Start layer 0's first N query heads as previous-token heads at offsets 1..N (needs --arch qwen2)",
    },
    'prev-token-offsets': {
      kind: 'list',
      valueName: 'K,…',
      help: "Start one of layer 0's query heads per offset as a previous-token head reading K tokens back, in order (needs --arch qwen2; instead of --prev-token-heads)",
    },
    'vocab-from': {
      kind: 'string',
      valueName: 'FILE',
      help: 'Learn BPE merges from this file: .jsonl as sft reads it (messages, or prompt/completion), else plain text',
    },
    'vocab-size': {
      kind: 'integer',
      min: BYTE_VOCAB_SIZE + 1,
      valueName: 'N',
      help: 'Tokens in all with --vocab-from (256 bytes + 3 special + merges)',
      defaultText: String(DEFAULT_VOCAB_SIZE),
    },
    force: { kind: 'boolean', help: 'Write into a folder that already has files, overwriting them' },
  },
  examples: [
    'gauntlet-trainer init-tiny ./models/tiny',
    'gauntlet-trainer init-tiny ./models/tiny-llama --arch llama --seed 7 --layers 4',
    'gauntlet-trainer init-tiny ./models/tiny-2m --hidden-size 256 --layers 4 --max-positions 8192',
    'gauntlet-trainer init-tiny ./models/tiny-bpe --hidden-size 256 --layers 4 --vocab-from data/gauntlet/sft.jsonl',
  ],
  async run(context) {
    const dir = resolve(context.positionals[0]!);
    const values = context.options;
    const tie = values['tie-embeddings'] === undefined ? undefined : values['tie-embeddings'] === 'true';
    const options = {
      architecture: values.arch as Architecture,
      seed: values.seed,
      hiddenSize: values['hidden-size'],
      numLayers: values.layers,
      numHeads: values.heads,
      numKvHeads: values['kv-heads'],
      headDim: values['head-dim'],
      intermediateSize: values['intermediate-size'],
      tieWordEmbeddings: tie,
      maxPositionEmbeddings: values['max-positions'],
    };
    const previousTokenOffsets = parseOffsets(values['prev-token-offsets'], values['prev-token-heads']);
    const vocabFrom = values['vocab-from'];
    const vocabSize = values['vocab-size'] ?? DEFAULT_VOCAB_SIZE;
    if (vocabFrom === undefined && values['vocab-size'] !== undefined)
      throw new UsageError(
        'init-tiny: --vocab-size needs --vocab-from FILE (the text to learn merges from)',
        'vocab-size',
      );
    let sizes: ModelConfig;
    try {
      sizes = tinyModelConfig(options);
    } catch (error) {
      // Inconsistent sizes are a command-line mistake; the parser's message names the config.json field.
      throw new UsageError(`init-tiny: ${(error as Error).message}`);
    }
    const plantFlag = values['prev-token-offsets'] === undefined ? 'prev-token-heads' : 'prev-token-offsets';
    checkPreviousTokenHeads(sizes, previousTokenOffsets, plantFlag);
    const merges = vocabFrom === undefined ? undefined : await learnMergesFrom(context, vocabFrom, vocabSize);
    await prepareOutputDir(dir, values.force, 'init-tiny');
    const { config, files } = await writeTinyModel(dir, { ...options, merges, previousTokenOffsets });
    const parameters = [...expectedWeightShapes(config).values()].reduce((sum, shape) => sum + elementCount(shape), 0);
    context.io.out(
      `Wrote a tiny ${config.architecture} model (${formatCount(parameters)} parameters, ${config.vocabSize} tokens, seed ${options.seed}) to ${dir}`,
    );
    for (const file of files) context.io.out(`  ${file}`);
  },
});

/** --prev-token-offsets as integers, else 1..--prev-token-heads; both at once is ambiguous. */
function parseOffsets(listed: readonly string[] | undefined, count: number): number[] {
  if (listed === undefined) return consecutiveOffsets(count);
  if (count > 0)
    throw new UsageError(
      'init-tiny: give --prev-token-heads N (offsets 1..N) or --prev-token-offsets K,…, not both',
      'prev-token-offsets',
    );
  const offsets = listed.map((text) => (/^\d+$/.test(text.trim()) ? Number(text) : Number.NaN));
  const bad = listed.find((_, n) => !(offsets[n]! >= 1 && Number.isSafeInteger(offsets[n])));
  if (bad !== undefined)
    throw new UsageError(
      `init-tiny: --prev-token-offsets takes positive integers, tokens back (got "${bad}")`,
      'prev-token-offsets',
    );
  if (new Set(offsets).size !== offsets.length)
    throw new UsageError(
      `init-tiny: --prev-token-offsets ${listed.join(',')} repeats an offset; one head each`,
      'prev-token-offsets',
    );
  return offsets;
}

/** The heads live in the q/k biases (qwen2 only), one query head each. */
function checkPreviousTokenHeads(config: ModelConfig, offsets: readonly number[], flag: string): void {
  if (offsets.length === 0) return;
  if (config.architecture !== 'qwen2')
    throw new UsageError(
      `init-tiny: --${flag} needs --arch qwen2, whose q/k biases carry the heads (got --arch ${config.architecture})`,
      flag,
    );
  if (offsets.length > config.numHeads)
    throw new UsageError(
      `init-tiny: --${flag} ${flag === 'prev-token-heads' ? offsets.length : offsets.join(',')} is more than the ${config.numHeads} query heads (--heads); one head each`,
      flag,
    );
}

/** The texts a tokenizer should fit: each message as the chat template lays it out (role, then content). */
async function learnMergesFrom(
  context: Pick<CommandContext, 'io'>,
  file: string,
  vocabSize: number,
): Promise<[string, string][]> {
  const started = performance.now();
  const texts = file.endsWith('.jsonl')
    ? (await readSftJsonl(file)).flatMap((r) =>
        r.kind === 'chat' ? r.messages.map((m) => `${m.role}\n${m.content}`) : [r.prompt, r.completion],
      )
    : [await readTextFile(file)];
  const learned = learnByteLevelMerges(texts, vocabSize - BYTE_VOCAB_SIZE);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  context.io.err(
    `init-tiny: learned ${learned.merges.length} merges from ${formatCount(learned.chars)} characters of ${file} (${learned.words} distinct words) in ${seconds} s`,
  );
  return learned.merges;
}
