import { compareGradients, numericGradient, type TensorDiff } from '../../src/engine/gradcheck.js';
import { hostTensor, type HostTensor } from '../../src/engine/host-tensor.js';
import { seededRandom } from '../../src/engine/random.js';
import { Runtime } from '../../src/engine/runtime.js';
import type { ModelConfig } from '../../src/model/config.js';
import type { WeightMap } from '../../src/model/weights.js';
import {
  buildTrainGraph,
  gradName,
  LOSS,
  type TrainGraph,
  type TrainGraphOptions,
} from '../../src/train/train-graph.js';

/** The named weights as float64 graph feeds. */
export function float64Weights(weights: WeightMap, names: readonly string[]): Record<string, HostTensor> {
  return Object.fromEntries(
    names.map((name) => {
      const w = weights.get(name)!;
      return [name, hostTensor('float64', w.shape, Float64Array.from(w.data), name)];
    }),
  );
}

export interface TrainGradcheckOptions {
  /** Entries drawn per weight, from a generator seeded with `seed` (defaults 3 and 8). */
  entries?: number;
  seed?: number;
  /** Weights checked (default: every input the graph trains). */
  checked?: readonly string[];
  /** Entries checked besides the drawn ones (e.g. an embedding row the fed tokens reach). */
  alsoCheck?: (name: string) => number[];
  /** Told each weight's comparison, for a log line. */
  onWeight?: (name: string, diff: TensorDiff) => void;
}

export interface TrainGradcheck {
  /** Largest |analytic − numeric| over its tolerance (atol 1e-7, rtol 1e-5): ≤ 1 passes. */
  worst: number;
  /** Largest |gradient| among the entries checked (a check of all-zero gradients proves nothing). */
  largest: number;
  /** The graph's trained inputs. */
  parameters: string[];
}

/**
 * A train graph's gradients against central differences: builds `options`' graph in float64 with
 * and without gradients, feeds it what `feedsFor` gives (which may run the gradient graph first,
 * e.g. to set old log-probs near the current ones), and compares drawn entries of each weight.
 */
export async function checkTrainGradients(
  config: ModelConfig,
  weights: WeightMap,
  options: Omit<TrainGraphOptions, 'dtype' | 'withGradients'>,
  feedsFor: (graph: TrainGraph, runtime: Runtime) => Promise<Record<string, HostTensor>> | Record<string, HostTensor>,
  check: TrainGradcheckOptions = {},
): Promise<TrainGradcheck> {
  const float64 = { ...options, dtype: 'float64' as const };
  const withGrads = buildTrainGraph(config, weights, float64);
  const lossOnly = buildTrainGraph(config, weights, { ...float64, withGradients: false });
  const backward = await Runtime.create(withGrads.graph, { intraOpNumThreads: 1 });
  const forward = await Runtime.create(lossOnly.graph, { intraOpNumThreads: 1 });
  try {
    const feeds = await feedsFor(withGrads, backward);
    const analytic = await backward.run(feeds);
    const loss = async (f: Record<string, HostTensor>) => (await forward.run(f))[LOSS]!.data[0] as number;
    const random = seededRandom(check.seed ?? 8);
    let worst = 0;
    let largest = 0;
    for (const name of check.checked ?? withGrads.parameters) {
      const n = feeds[name]!.data.length;
      const drawn = Array.from({ length: check.entries ?? 3 }, () => Math.floor(random() * n));
      const indices = [...new Set([...drawn, ...(check.alsoCheck?.(name) ?? [])])];
      const numeric = await numericGradient(loss, feeds, name, indices, 1e-6);
      const diff = compareGradients(name, analytic[gradName(name)]!.data as Float64Array, indices, numeric, {
        atol: 1e-7,
        rtol: 1e-5,
      });
      check.onWeight?.(name, diff);
      worst = Math.max(worst, diff.worstRatio);
      largest = Math.max(largest, diff.maxAbsGrad);
    }
    return { worst, largest, parameters: [...withGrads.parameters] };
  } finally {
    await forward.release();
    await backward.release();
  }
}
