import { resolve } from 'node:path';
import type { Architecture } from '../../model/config.js';
import { expectedWeightShapes } from '../../model/layout.js';
import { elementCount } from '../../model/tensor.js';
import { tinyModelConfig, writeTinyModel } from '../../model/tiny.js';
import { UsageError, type Command } from '../command.js';
import { choiceOption, integerOption, optionalIntegerOption } from '../options.js';
import { prepareOutputDir } from '../output-dir.js';
import { formatCount } from '../table.js';

const ARCHITECTURES: readonly Architecture[] = ['llama', 'qwen2', 'qwen3'];

export const initTinyCommand: Command = {
  name: 'init-tiny',
  summary: 'Write a tiny model folder (seeded random weights, byte-level tokenizer, ChatML template)',
  description: [
    'Writes a complete Hugging Face model folder small enough to train on 2 CPU cores: config.json,',
    'model.safetensors (seeded random float32 weights), a byte-level tokenizer.json (token id = byte,',
    'plus <|endoftext|>, <|im_start|>, <|im_end|>), tokenizer_config.json with a ChatML chat template',
    'and generation_config.json. The same options and seed always write byte-identical files.',
  ].join('\n'),
  positionals: [{ name: 'dir', description: 'Folder to write (created if missing)' }],
  options: {
    arch: {
      type: 'string',
      valueName: 'NAME',
      description: 'Architecture: llama, qwen2 (q/k/v bias) or qwen3 (q/k norm)',
      defaultText: 'qwen2',
    },
    seed: { type: 'string', valueName: 'N', description: 'Seed for the random weights', defaultText: '0' },
    'hidden-size': { type: 'string', valueName: 'N', description: 'Width of the residual stream', defaultText: '64' },
    layers: { type: 'string', valueName: 'N', description: 'Number of decoder layers', defaultText: '2' },
    heads: { type: 'string', valueName: 'N', description: 'Attention (query) heads', defaultText: '4' },
    'kv-heads': {
      type: 'string',
      valueName: 'N',
      description: 'Key/value heads (grouped-query attention); must divide --heads',
      defaultText: 'heads / 2',
    },
    'head-dim': {
      type: 'string',
      valueName: 'N',
      description: 'Width of one head; must be even',
      defaultText: 'hidden-size / heads',
    },
    'intermediate-size': {
      type: 'string',
      valueName: 'N',
      description: 'Width of the SwiGLU MLP',
      defaultText: '2 × hidden-size',
    },
    'max-positions': {
      type: 'string',
      valueName: 'N',
      description: 'max_position_embeddings: the longest sequence the model takes (RoPE; no weights depend on it)',
      defaultText: '4096',
    },
    'tie-embeddings': {
      type: 'string',
      valueName: 'true|false',
      description: 'Share the embedding matrix with the output head',
      defaultText: 'true for qwen2/qwen3, false for llama',
    },
    force: { type: 'boolean', description: 'Write into a folder that already has files, overwriting them' },
  },
  examples: [
    'gauntlet-trainer init-tiny ./models/tiny',
    'gauntlet-trainer init-tiny ./models/tiny-llama --arch llama --seed 7 --layers 4',
    'gauntlet-trainer init-tiny ./models/tiny-2m --hidden-size 256 --layers 4 --max-positions 8192',
  ],
  async run(context) {
    const dir = resolve(context.positionals[0]!);
    const tie =
      context.options['tie-embeddings'] === undefined
        ? undefined
        : choiceOption(context, 'tie-embeddings', ['true', 'false'], 'true') === 'true';
    const options = {
      architecture: choiceOption(context, 'arch', ARCHITECTURES, 'qwen2'),
      seed: integerOption(context, 'seed', 0, 0),
      hiddenSize: optionalIntegerOption(context, 'hidden-size'),
      numLayers: optionalIntegerOption(context, 'layers'),
      numHeads: optionalIntegerOption(context, 'heads'),
      numKvHeads: optionalIntegerOption(context, 'kv-heads'),
      headDim: optionalIntegerOption(context, 'head-dim'),
      intermediateSize: optionalIntegerOption(context, 'intermediate-size'),
      tieWordEmbeddings: tie,
      maxPositionEmbeddings: optionalIntegerOption(context, 'max-positions'),
    };
    try {
      tinyModelConfig(options);
    } catch (error) {
      // Inconsistent sizes are a command-line mistake; the parser's message names the config.json field.
      throw new UsageError(`init-tiny: ${(error as Error).message}`, 'init-tiny');
    }
    await prepareOutputDir(dir, context.options.force === true, 'init-tiny');
    const { config, files } = await writeTinyModel(dir, options);
    const parameters = [...expectedWeightShapes(config).values()].reduce((sum, shape) => sum + elementCount(shape), 0);
    context.io.out(
      `Wrote a tiny ${config.architecture} model (${formatCount(parameters)} parameters, seed ${options.seed}) to ${dir}`,
    );
    for (const file of files) context.io.out(`  ${file}`);
  },
};
