import type { ModelConfig } from '../model/config.js';
import { ModelFileError } from '../model/errors.js';
import { linearFeatures, linearModulePath, type LinearModule } from '../model/layout.js';
import { createRng } from '../model/random.js';
import { formatShape, sameShape, type Tensor } from '../model/tensor.js';
import type { LoraConfig } from './config.js';

/** One adapted linear layer: y = x·Wᵀ + scale · (x·Aᵀ)·Bᵀ. */
export interface LoraModule {
  /** [rank, inFeatures] */
  a: Tensor;
  /** [outFeatures, rank] */
  b: Tensor;
}

/** LoRA factors by module path (`model.layers.0.self_attn.q_proj`), in layer then target order. */
export interface LoraAdapter {
  config: LoraConfig;
  modules: Map<string, LoraModule>;
  /** The file it was loaded from, for error messages; absent for adapters built in memory. */
  source?: string;
}

export interface LoraModuleSlot {
  path: string;
  layer: number;
  module: LinearModule;
  aShape: number[];
  bShape: number[];
}

/** Every module an adapter with this config has on this model, with the shapes of A and B. */
export function loraModuleSlots(model: ModelConfig, lora: LoraConfig): LoraModuleSlot[] {
  const slots: LoraModuleSlot[] = [];
  for (let layer = 0; layer < model.numLayers; layer++) {
    for (const module of lora.targets) {
      const { inFeatures, outFeatures } = linearFeatures(model, module);
      slots.push({
        path: linearModulePath(layer, module),
        layer,
        module,
        aShape: [lora.rank, inFeatures],
        bShape: [outFeatures, lora.rank],
      });
    }
  }
  return slots;
}

/** PEFT's default init: A ~ U(−1/√in, 1/√in) (kaiming-uniform with a = √5), B = 0, so training starts at the base model. */
export function initLoraAdapter(model: ModelConfig, lora: LoraConfig, seed: number): LoraAdapter {
  const rng = createRng(seed);
  const modules = new Map<string, LoraModule>();
  for (const slot of loraModuleSlots(model, lora)) {
    const bound = 1 / Math.sqrt(slot.aShape[1]!);
    const a = new Float32Array(slot.aShape[0]! * slot.aShape[1]!);
    for (let i = 0; i < a.length; i++) a[i] = rng.uniform(-bound, bound);
    modules.set(slot.path, {
      a: { shape: slot.aShape, data: a },
      b: { shape: slot.bShape, data: new Float32Array(slot.bShape[0]! * slot.bShape[1]!) },
    });
  }
  return { config: lora, modules };
}

/** A copy whose arrays are its own: a snapshot of an adapter that goes on training. */
export function copyAdapter(adapter: LoraAdapter): LoraAdapter {
  const copy = (t: Tensor): Tensor => ({ shape: [...t.shape], data: t.data.slice() });
  const modules = new Map([...adapter.modules].map(([path, m]) => [path, { a: copy(m.a), b: copy(m.b) }]));
  return { config: adapter.config, modules };
}

/** Checks an adapter fits a model: every slot present with the right shapes, nothing extra. */
export function validateAdapter(
  model: ModelConfig,
  adapter: LoraAdapter,
  file = adapter.source ?? '<in-memory adapter>',
): void {
  const slots = loraModuleSlots(model, adapter.config);
  for (const slot of slots) {
    const found = adapter.modules.get(slot.path);
    if (!found)
      throw new ModelFileError(
        file,
        `LoRA module ${slot.path} is missing (target ${slot.module}, rank ${adapter.config.rank})`,
        slot.path,
      );
    for (const [factor, tensor, shape] of [
      ['lora_A', found.a, slot.aShape],
      ['lora_B', found.b, slot.bShape],
    ] as const) {
      if (!sameShape(tensor.shape, shape)) {
        throw new ModelFileError(
          file,
          `${slot.path}.${factor} has shape ${formatShape(tensor.shape)}, expected ${formatShape(shape)} for this model`,
          slot.path,
        );
      }
    }
  }
  const known = new Set(slots.map((s) => s.path));
  const extra = [...adapter.modules.keys()].find((path) => !known.has(path));
  if (extra)
    throw new ModelFileError(
      file,
      `LoRA module ${extra} does not exist in this model or is not a configured target`,
      extra,
    );
}
