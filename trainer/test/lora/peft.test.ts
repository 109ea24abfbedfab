import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initLoraAdapter, type LoraAdapter } from '../../src/lora/adapter.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import { ADAPTER_WEIGHTS_FILE, loadAdapter, peftTensorKey, saveAdapter } from '../../src/lora/peft.js';
import { createRng } from '../../src/model/random.js';
import { readSafetensors, readSafetensorsHeader, writeSafetensors } from '../../src/model/safetensors.js';
import { tinyModelConfig } from '../../src/model/tiny.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs();
const model = tinyModelConfig({
  architecture: 'qwen3',
  hiddenSize: 32,
  numHeads: 4,
  numKvHeads: 2,
  headDim: 16,
  intermediateSize: 48,
});

function trainedAdapter(options = {}): LoraAdapter {
  const adapter = initLoraAdapter(model, makeLoraConfig({ rank: 4, alpha: 16, ...options }), 1);
  const rng = createRng(2);
  for (const { b } of adapter.modules.values()) b.data.forEach((_, i) => (b.data[i] = rng.normal()));
  return adapter;
}

async function savedAdapter(options = {}): Promise<string> {
  const dir = await tempDir();
  await saveAdapter(dir, trainedAdapter(options), { baseModelNameOrPath: 'Qwen/Qwen3-0.6B' });
  return dir;
}

describe('PEFT adapter format', () => {
  it('writes adapter_config.json with the fields PEFT and vLLM read', async () => {
    const dir = await savedAdapter({ useRslora: true, targets: ['v_proj', 'q_proj'] });
    const config = JSON.parse(await readFile(join(dir, 'adapter_config.json'), 'utf8'));
    expect(config).toMatchObject({
      peft_type: 'LORA',
      task_type: 'CAUSAL_LM',
      base_model_name_or_path: 'Qwen/Qwen3-0.6B',
      r: 4,
      lora_alpha: 16,
      lora_dropout: 0,
      target_modules: ['q_proj', 'v_proj'],
      bias: 'none',
      use_rslora: true,
      use_dora: false,
      modules_to_save: null,
      inference_mode: true,
      fan_in_fan_out: false,
    });
  });

  it('names tensors base_model.model.<module>.lora_{A,B}.weight with shapes [r, in] and [out, r], metadata format pt', async () => {
    const dir = await savedAdapter();
    const header = await readSafetensorsHeader(join(dir, ADAPTER_WEIGHTS_FILE));
    expect(header.metadata).toEqual({ format: 'pt' });
    const shapes = Object.fromEntries(header.entries.map((e) => [e.name, e.shape]));
    expect(Object.keys(shapes)).toHaveLength(2 * 7 * model.numLayers);
    expect(shapes['base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight']).toEqual([4, 32]);
    expect(shapes['base_model.model.model.layers.0.self_attn.q_proj.lora_B.weight']).toEqual([64, 4]);
    expect(shapes['base_model.model.model.layers.1.self_attn.k_proj.lora_B.weight']).toEqual([32, 4]);
    expect(shapes['base_model.model.model.layers.1.self_attn.o_proj.lora_A.weight']).toEqual([4, 64]);
    expect(shapes['base_model.model.model.layers.1.mlp.gate_proj.lora_B.weight']).toEqual([48, 4]);
    expect(shapes['base_model.model.model.layers.0.mlp.down_proj.lora_A.weight']).toEqual([4, 48]);
    expect(header.entries.every((e) => e.dtype === 'F32')).toBe(true);
  });

  it('loads back exactly what was saved, with or without the model config to check against', async () => {
    const dir = await savedAdapter();
    const original = trainedAdapter();
    for (const loaded of [await loadAdapter(dir), await loadAdapter(dir, { model })]) {
      expect(loaded.config).toEqual(original.config);
      expect(loaded.modules).toEqual(original.modules);
      expect(loaded.baseModelNameOrPath).toBe('Qwen/Qwen3-0.6B');
      expect(loaded.source).toBe(join(dir, ADAPTER_WEIGHTS_FILE));
    }
  });

  it('accepts target_modules "all-linear"', async () => {
    const dir = await savedAdapter();
    const configFile = join(dir, 'adapter_config.json');
    const config = JSON.parse(await readFile(configFile, 'utf8'));
    await writeFile(configFile, JSON.stringify({ ...config, target_modules: 'all-linear' }));
    expect((await loadAdapter(dir)).config.targets).toHaveLength(7);
  });
});

describe('PEFT adapter errors name the file and key', () => {
  async function withConfig(patch: Record<string, unknown>): Promise<string> {
    const dir = await savedAdapter();
    const file = join(dir, 'adapter_config.json');
    await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), ...patch }));
    return dir;
  }

  it.each([
    [{ peft_type: 'IA3' }, 'peft_type must be "LORA" (got "IA3")'],
    [{ use_dora: true }, 'use_dora true is not supported (DoRA; vLLM refuses it too)'],
    [{ bias: 'all' }, 'bias must be "none" (got "all")'],
    [{ modules_to_save: ['lm_head'] }, 'modules_to_save is not supported (got ["lm_head"]; expected null)'],
    [{ rank_pattern: { q_proj: 16 } }, 'rank_pattern per-module ranks/alphas are not supported'],
    [{ r: 'eight' }, 'r must be a positive integer (got "eight")'],
    [
      { target_modules: '.*proj' },
      'target_modules must be a non-empty list of module names or "all-linear" (got ".*proj")',
    ],
    [{ target_modules: ['q_proj', 'embed_tokens'] }, 'target_modules holds "embed_tokens", not one of q_proj'],
  ])('config %j', async (patch, message) => {
    const dir = await withConfig(patch);
    await expect(loadAdapter(dir)).rejects.toThrow(`${join(dir, 'adapter_config.json')}: ${message}`);
  });

  it('rank in the config disagreeing with the tensors', async () => {
    const dir = await withConfig({ r: 8 });
    await expect(loadAdapter(dir)).rejects.toThrow(
      `${join(dir, ADAPTER_WEIGHTS_FILE)}: tensor base_model.model.model.layers.0.mlp.down_proj.lora_A.weight: shape [4, 48] does not have rank r = 8 rows`,
    );
  });

  it('a target the config does not list', async () => {
    const dir = await withConfig({ target_modules: ['q_proj'] });
    await expect(loadAdapter(dir)).rejects.toThrow(
      `tensor base_model.model.model.layers.0.mlp.down_proj.lora_A.weight: down_proj is not in adapter_config.json's target_modules`,
    );
  });

  async function editTensors(
    edit: (tensors: Map<string, { shape: number[]; data: Float32Array }>) => void,
  ): Promise<{ dir: string; file: string }> {
    const dir = await savedAdapter();
    const file = join(dir, ADAPTER_WEIGHTS_FILE);
    const { tensors } = await readSafetensors(file);
    edit(tensors);
    await writeSafetensors(file, tensors);
    return { dir, file };
  }

  it('a B without its A, a missing module, an unknown key, a shape that does not fit the model', async () => {
    const qA = peftTensorKey('model.layers.1.self_attn.q_proj', 'lora_A');
    let { dir, file } = await editTensors((t) => t.delete(qA));
    await expect(loadAdapter(dir)).rejects.toThrow(`${file}: tensor ${qA} is missing (its pair is present)`);

    ({ dir, file } = await editTensors((t) => {
      t.delete(qA);
      t.delete(peftTensorKey('model.layers.1.self_attn.q_proj', 'lora_B'));
    }));
    await expect(loadAdapter(dir)).rejects.toThrow(`${file}: tensor ${qA} is missing (target q_proj, layer 1)`);

    ({ dir, file } = await editTensors((t) =>
      t.set('base_model.model.lm_head.lora_A.weight', { shape: [4, 32], data: new Float32Array(128) }),
    ));
    await expect(loadAdapter(dir)).rejects.toThrow(
      `${file}: tensor base_model.model.lm_head.lora_A.weight is not a LoRA factor of a decoder linear layer`,
    );

    ({ dir, file } = await editTensors((t) => t.set(qA, { shape: [4, 31], data: new Float32Array(124) })));
    await expect(loadAdapter(dir, { model })).rejects.toThrow(
      `${file}: tensor ${qA}: shape [4, 31] does not fit this model (expected [4, 32])`,
    );
  });

  it('factor values that are NaN, ±Inf or beyond float16 range name the tensor and index', async () => {
    const qB = peftTensorKey('model.layers.1.self_attn.q_proj', 'lora_B');
    for (const value of [NaN, Infinity, -Infinity, 3e38, -65505]) {
      const { dir, file } = await editTensors((t) => t.get(qB)!.data.fill(value, 5, 6));
      await expect(loadAdapter(dir, { model })).rejects.toThrow(
        `${file}: tensor ${qB}: it holds ${String(Math.fround(value))} at index 5 (LoRA factors must be finite and within ±65504, float16's range)`,
      );
    }
    const { dir } = await editTensors((t) => t.get(qB)!.data.fill(-65504, 5, 6));
    await expect(loadAdapter(dir, { model })).resolves.toBeDefined();
  });

  it('a folder without adapter_config.json', async () => {
    const dir = await tempDir();
    await expect(loadAdapter(dir)).rejects.toThrow(`${join(dir, 'adapter_config.json')}: file not found`);
  });
});
