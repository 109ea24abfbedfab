import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedWeightShapes } from '../../src/model/layout.js';
import { ModelTokenizer } from '../../src/model/tokenizer.js';
import { defaultEmbeddingStd, tinyModelConfig, tinyModelWeights, writeTinyModel } from '../../src/model/tiny.js';
import { loadModel } from '../../src/model/weights.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs();

async function folderBytes(dir: string): Promise<Map<string, Buffer>> {
  const names = (await readdir(dir)).sort();
  return new Map(await Promise.all(names.map(async (name) => [name, await readFile(join(dir, name))] as const)));
}

describe('tiny model', () => {
  it('writes byte-identical folders for the same options and seed, different weights for another seed', async () => {
    const [first, second, other] = [await tempDir(), await tempDir(), await tempDir()];
    await writeTinyModel(first, { architecture: 'qwen3', seed: 7 });
    await writeTinyModel(second, { architecture: 'qwen3', seed: 7 });
    await writeTinyModel(other, { architecture: 'qwen3', seed: 8 });
    expect(await folderBytes(first)).toEqual(await folderBytes(second));
    const weightsOf = async (dir: string) => readFile(join(dir, 'model.safetensors'));
    expect((await weightsOf(first)).equals(await weightsOf(other))).toBe(false);
  });

  it.each(['llama', 'qwen2', 'qwen3'] as const)(
    '%s loads back through weights.ts with every expected tensor',
    async (architecture) => {
      const dir = await tempDir();
      const { config, files } = await writeTinyModel(dir, { architecture, seed: 1 });
      expect(files).toEqual([
        'config.json',
        'generation_config.json',
        'model.safetensors',
        'tokenizer.json',
        'tokenizer_config.json',
      ]);
      const loaded = await loadModel(dir);
      expect(loaded.config).toEqual(config);
      expect([...loaded.weights.keys()].sort()).toEqual([...expectedWeightShapes(config).keys()].sort());
      expect(loaded.weights.has('lm_head.weight')).toBe(architecture === 'llama');
      expect(loaded.weights.has('model.layers.0.self_attn.q_proj.bias')).toBe(architecture === 'qwen2');
      expect(loaded.weights.has('model.layers.1.self_attn.k_norm.weight')).toBe(architecture === 'qwen3');
    },
  );

  it('initialises decoder matrices ~ N(0, 0.02²), embedding and head at 1.6/√hidden, norms near one', async () => {
    const dir = await tempDir();
    await writeTinyModel(dir, { architecture: 'llama', seed: 3 });
    const { weights } = await loadModel(dir);
    const std = (name: string, mean = 0) => {
      const data = weights.get(name)!.data;
      return Math.sqrt(data.reduce((s, v) => s + (v - mean) ** 2, 0) / data.length);
    };
    expect(defaultEmbeddingStd(64)).toBe(0.2);
    expect(std('model.embed_tokens.weight')).toBeCloseTo(0.2, 2);
    expect(std('lm_head.weight')).toBeCloseTo(0.2, 2);
    expect(std('model.layers.0.mlp.up_proj.weight')).toBeCloseTo(0.02, 3);
    expect(std('model.norm.weight', 1)).toBeGreaterThan(0.05);
  });

  it('takes the embedding std as an option: same seed, same noise, scaled (the HF golden fixtures pin the old 0.02)', () => {
    const config = tinyModelConfig({ hiddenSize: 32, numHeads: 2 });
    const embed = (options: { embeddingStd?: number }) =>
      tinyModelWeights(config, 1, options).get('model.embed_tokens.weight')!.data;
    const [narrow, wide, byDefault] = [embed({ embeddingStd: 0.02 }), embed({ embeddingStd: 0.2 }), embed({})];
    expect(Math.max(...wide.map((v, i) => Math.abs(v - 10 * narrow[i]!)))).toBeLessThan(1e-6);
    expect(
      Math.max(...byDefault.map((v, i) => Math.abs(v - (defaultEmbeddingStd(32) / 0.02) * narrow[i]!))),
    ).toBeLessThan(1e-6);
    expect(() => embed({ embeddingStd: 0 })).toThrow('embeddingStd must be a positive number (got 0)');
  });

  it('has a tokenizer whose vocabulary and end-of-sequence ids match the config', async () => {
    const dir = await tempDir();
    const { config } = await writeTinyModel(dir);
    const tokenizer = await ModelTokenizer.load(dir);
    expect(tokenizer.vocabSize).toBe(config.vocabSize);
    expect(tokenizer.eosTokenIds).toEqual(config.eosTokenIds);
    expect(tokenizer.specialTokens).toEqual([
      { id: 256, content: '<|endoftext|>' },
      { id: 257, content: '<|im_start|>' },
      { id: 258, content: '<|im_end|>' },
    ]);
  });

  it('accepts size options and rejects inconsistent ones in config.json terms', () => {
    expect(tinyModelConfig({ hiddenSize: 32, numHeads: 2, numKvHeads: 1, numLayers: 1 })).toMatchObject({
      headDim: 16,
      intermediateSize: 64,
    });
    expect(() => tinyModelConfig({ numHeads: 4, numKvHeads: 3 })).toThrow(
      '<tiny model options>: num_key_value_heads must divide num_attention_heads',
    );
    expect(() => tinyModelConfig({ hiddenSize: 60, numHeads: 8 })).toThrow(
      '<tiny model options>: head_dim must be a positive integer (got 7.5)',
    );
  });
});
