import { describe, expect, it } from 'vitest';
import { tinyModelConfig } from '../model/tiny.js';
import { initLoraAdapter, loraModuleSlots, validateAdapter } from './adapter.js';
import { makeLoraConfig } from './config.js';

const model = tinyModelConfig({ hiddenSize: 32, numHeads: 4, numKvHeads: 2, intermediateSize: 48, numLayers: 2 });

describe('initLoraAdapter', () => {
  it('creates A ~ U(−1/√in, 1/√in) and B = 0 for every target in every layer', () => {
    const lora = makeLoraConfig({ rank: 4, targets: ['k_proj', 'down_proj'] });
    const adapter = initLoraAdapter(model, lora, 1);
    expect([...adapter.modules.keys()]).toEqual([
      'model.layers.0.self_attn.k_proj',
      'model.layers.0.mlp.down_proj',
      'model.layers.1.self_attn.k_proj',
      'model.layers.1.mlp.down_proj',
    ]);
    const k = adapter.modules.get('model.layers.0.self_attn.k_proj')!;
    expect([k.a.shape, k.b.shape]).toEqual([
      [4, 32],
      [16, 4],
    ]);
    const down = adapter.modules.get('model.layers.1.mlp.down_proj')!;
    expect([down.a.shape, down.b.shape]).toEqual([
      [4, 48],
      [32, 4],
    ]);
    const bound = 1 / Math.sqrt(48);
    expect(Math.max(...down.a.data.map(Math.abs))).toBeLessThanOrEqual(bound);
    expect(Math.max(...down.a.data.map(Math.abs))).toBeGreaterThan(0.8 * bound);
    expect(down.b.data.every((v) => v === 0)).toBe(true);
  });

  it('is deterministic in the seed', () => {
    const lora = makeLoraConfig({ rank: 2 });
    const a = (seed: number) =>
      initLoraAdapter(model, lora, seed).modules.get('model.layers.1.self_attn.o_proj')!.a.data;
    expect(a(5)).toEqual(a(5));
    expect(a(5)).not.toEqual(a(6));
  });
});

describe('validateAdapter', () => {
  const lora = makeLoraConfig({ rank: 2, targets: ['q_proj'] });
  it('accepts a fitting adapter and names the module that does not fit', () => {
    const adapter = initLoraAdapter(model, lora, 0);
    expect(() => validateAdapter(model, adapter, 'a.safetensors')).not.toThrow();
    const slot = loraModuleSlots(model, lora)[1]!;
    adapter.modules.set(slot.path, {
      a: { shape: [2, 31], data: new Float32Array(62) },
      b: adapter.modules.get(slot.path)!.b,
    });
    expect(() => validateAdapter(model, adapter, 'a.safetensors')).toThrow(
      'a.safetensors: model.layers.1.self_attn.q_proj.lora_A has shape [2, 31], expected [2, 32] for this model',
    );
    adapter.modules.delete(slot.path);
    expect(() => validateAdapter(model, adapter, 'a.safetensors')).toThrow(
      'a.safetensors: LoRA module model.layers.1.self_attn.q_proj is missing (target q_proj, rank 2)',
    );
  });

  it('rejects modules for layers the model does not have', () => {
    const deeper = initLoraAdapter({ ...model, numLayers: 3 }, lora, 0);
    expect(() => validateAdapter(model, deeper, 'a.safetensors')).toThrow(
      'a.safetensors: LoRA module model.layers.2.self_attn.q_proj does not exist in this model',
    );
  });
});
