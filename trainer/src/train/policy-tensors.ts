import { copyAdapter, type LoraAdapter } from '../lora/adapter.js';
import type { WeightMap } from '../model/weights.js';

/**
 * What a run trains, as one named set: the LoRA adapter (when `--train` has lora) and the base
 * weights it trains (by Hugging Face name; empty or absent for LoRA alone). A published version,
 * a checkpoint and an earlier version a resumed server serves again all hold one.
 */
export interface PolicyTensors {
  adapter?: LoraAdapter | undefined;
  weights?: WeightMap | undefined;
}

/** A copy whose arrays are its own: a snapshot of a policy that goes on training. */
export function copyPolicy(policy: PolicyTensors): PolicyTensors {
  const weights = policy.weights?.size
    ? new Map([...policy.weights].map(([name, w]) => [name, { shape: [...w.shape], data: w.data.slice() }]))
    : undefined;
  return {
    ...(policy.adapter ? { adapter: copyAdapter(policy.adapter) } : {}),
    ...(weights ? { weights } : {}),
  };
}
