import type { WeightMap } from '../model/weights.js';
import { ModelFileError } from '../model/errors.js';
import { formatShape } from '../model/tensor.js';
import type { LoraAdapter } from './adapter.js';
import { loraScale } from './config.js';

/**
 * W' = W + scale · B·A for every adapted module. Returns a new map: merged tensors are fresh
 * copies, all others are shared with the input, which is left untouched.
 */
export function mergeAdapter(weights: WeightMap, adapter: LoraAdapter): WeightMap {
  const scale = loraScale(adapter.config);
  const source = adapter.source ?? '<in-memory adapter>';
  const merged: WeightMap = new Map(weights);
  for (const [path, { a, b }] of adapter.modules) {
    const name = `${path}.weight`;
    const base = weights.get(name);
    if (!base) throw new ModelFileError(source, `cannot merge ${path}: the model has no ${name}`, path);
    const [outFeatures, inFeatures] = base.shape as [number, number];
    const rank = a.shape[0]!;
    if (a.shape[1] !== inFeatures || b.shape[0] !== outFeatures || b.shape[1] !== rank) {
      throw new ModelFileError(
        source,
        `cannot merge ${path}: A ${formatShape(a.shape)} and B ${formatShape(b.shape)} do not fit weight ${formatShape(base.shape)}`,
        path,
      );
    }
    const data = Float32Array.from(base.data);
    const row = new Float64Array(inFeatures);
    for (let o = 0; o < outFeatures; o++) {
      row.fill(0);
      for (let k = 0; k < rank; k++) {
        const coefficient = scale * b.data[o * rank + k]!;
        if (coefficient === 0) continue;
        for (let i = 0; i < inFeatures; i++) row[i]! += coefficient * a.data[k * inFeatures + i]!;
      }
      for (let i = 0; i < inFeatures; i++) data[o * inFeatures + i]! += row[i]!;
    }
    merged.set(name, { shape: [...base.shape], data });
  }
  return merged;
}
