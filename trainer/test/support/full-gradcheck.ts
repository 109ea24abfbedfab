import { compareGradients, numericGradient } from '../../src/engine/gradcheck.js';
import { hostTensor, type HostTensor } from '../../src/engine/host-tensor.js';
import { Runtime } from '../../src/engine/runtime.js';
import type { ModelConfig } from '../../src/model/config.js';
import type { WeightMap } from '../../src/model/weights.js';
import { batchTotals, collate, type TrainSequence } from '../../src/train/batch.js';
import { buildTrainGraph, gradName, LOSS, type TrainGraphOptions } from '../../src/train/train-graph.js';

/** The named weights as float64 graph feeds. */
export function float64Weights(weights: WeightMap, names: readonly string[]): Record<string, HostTensor> {
  return Object.fromEntries(
    names.map((name) => {
      const w = weights.get(name)!;
      return [name, hostTensor('float64', w.shape, Float64Array.from(w.data), name)];
    }),
  );
}

export interface GradientCheck {
  /** Largest |analytic − numeric| over its tolerance (atol 1e-7, rtol 1e-5) seen: ≤ 1 passes. */
  worst: number;
  /** The graph's trained inputs (what has a gradient). */
  parameters: string[];
}

/**
 * Full-parameter gradients of the float64 train graph against central differences of its loss,
 * at the entries `pick` chooses for each weight `checked` names (default: every trained weight).
 */
export async function checkFullGradients(
  config: ModelConfig,
  weights: WeightMap,
  rows: TrainSequence[],
  options: Omit<TrainGraphOptions, 'dtype' | 'withGradients'> & { trainable: readonly string[] },
  pick: (name: string, size: number) => number[],
  checked?: readonly string[],
): Promise<GradientCheck> {
  const float64 = { ...options, dtype: 'float64' as const };
  const withGrads = buildTrainGraph(config, weights, float64);
  const lossOnly = buildTrainGraph(config, weights, { ...float64, withGradients: false });
  const feeds: Record<string, HostTensor> = {
    ...collate(rows, withGrads, batchTotals(rows), 'float64'),
    ...float64Weights(weights, options.trainable),
  };
  const backward = await Runtime.create(withGrads.graph, { intraOpNumThreads: 1 });
  const forward = await Runtime.create(lossOnly.graph, { intraOpNumThreads: 1 });
  try {
    const analytic = await backward.run(feeds);
    const loss = async (f: Record<string, HostTensor>) => (await forward.run(f))[LOSS]!.data[0] as number;
    let worst = 0;
    for (const name of checked ?? withGrads.parameters) {
      const indices = pick(name, feeds[name]!.data.length);
      const numeric = await numericGradient(loss, feeds, name, indices, 1e-6);
      const diff = compareGradients(name, analytic[gradName(name)]!.data as Float64Array, indices, numeric, {
        atol: 1e-7,
        rtol: 1e-5,
      });
      worst = Math.max(worst, diff.worstRatio);
    }
    return { worst, parameters: [...withGrads.parameters] };
  } finally {
    await forward.release();
    await backward.release();
  }
}
