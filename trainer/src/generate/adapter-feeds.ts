import type { HostTensor } from '../engine/host-tensor.js';
import type { LoraAdapter } from '../lora/adapter.js';
import { loraModuleSlots } from '../lora/adapter.js';
import { loraScale, makeLoraConfig } from '../lora/config.js';
import type { ModelConfig } from '../model/config.js';
import { loraInputNames } from '../graph/graph.js';
import { formatShape, sameShape } from '../model/tensor.js';
import type { WeightMap } from '../model/weights.js';

/**
 * Feeds for the cached graph's adapter inputs: every linear layer of every block, at the
 * adapter's rank, with α/r folded into B (so one graph serves any rank and scale). Modules the
 * adapter does not target, and the base model (no adapter), get zeros — rank 1 for the base.
 */
export function kvAdapterFeeds(config: ModelConfig, adapter?: LoraAdapter): Record<string, HostTensor> {
  const rank = adapter?.config.rank ?? 1;
  const scale = adapter ? loraScale(adapter.config) : 0;
  const feeds: Record<string, HostTensor> = {};
  for (const slot of loraModuleSlots(config, makeLoraConfig({ rank }))) {
    const names = loraInputNames(slot.path);
    const module = adapter?.modules.get(slot.path);
    const a = module ? module.a.data : new Float32Array(rank * slot.aShape[1]!);
    const b = new Float32Array(slot.bShape[0]! * rank);
    if (module) for (let i = 0; i < b.length; i++) b[i] = module.b.data[i]! * scale;
    feeds[names.a] = { dtype: 'float32', dims: [rank, slot.aShape[1]!], data: a };
    feeds[names.b] = { dtype: 'float32', dims: [slot.bShape[0]!, rank], data: b };
  }
  return feeds;
}

/**
 * Feeds for the cached graph's fed weights (buildKvGraph's `fed`): each name's tensor from
 * `weights`, else from `base`. Copies when `copy`, so a trainer may go on changing its arrays.
 */
export function kvWeightFeeds(
  base: WeightMap,
  fed: readonly string[],
  weights: WeightMap = new Map(),
  copy = false,
): Record<string, HostTensor> {
  const unknown = [...weights.keys()].find((name) => !fed.includes(name));
  if (unknown !== undefined)
    throw new RangeError(`weight ${unknown} is not fed to this server's graph (it serves ${fed.length} fed weights)`);
  const feeds: Record<string, HostTensor> = {};
  for (const name of fed) {
    const w = weights.get(name) ?? base.get(name)!;
    const want = base.get(name)!.shape;
    if (!sameShape(w.shape, want))
      throw new RangeError(`weight ${name} is ${formatShape(w.shape)}; the served model's is ${formatShape(want)}`);
    feeds[name] = { dtype: 'float32', dims: want, data: copy && weights.has(name) ? w.data.slice() : w.data };
  }
  return feeds;
}
