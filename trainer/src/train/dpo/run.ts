import type { RunOptions } from '../../engine/runtime.js';
import { shuffledBatches } from '../sft.js';
import type { DpoLearner, DpoStepResult } from './learner.js';
import type { ScoredPair } from './pairs.js';

export interface DpoRunOptions extends RunOptions {
  steps: number;
  /** Pairs per optimizer step. */
  batchSize: number;
  /** Shuffling seed; same seed, same order. */
  seed?: number;
  /** Called after every optimizer step; awaited, so it may save a checkpoint. */
  onStep?: (result: DpoStepResult) => void | Promise<void>;
}

/** DPO training: reshuffled passes over the pairs (as SFT draws its batches), one optimizer step per batch. */
export async function runDpo(
  learner: DpoLearner,
  pairs: readonly ScoredPair[],
  options: DpoRunOptions,
): Promise<DpoStepResult[]> {
  if (pairs.length === 0) throw new RangeError('DPO needs at least one pair');
  const batches = shuffledBatches(pairs.length, options.batchSize, options.seed ?? 0);
  const history: DpoStepResult[] = [];
  for (let step = 0; step < options.steps; step++) {
    options.signal?.throwIfAborted();
    const result = await learner.step(
      batches.next().value.map((i) => pairs[i]!),
      options,
    );
    history.push(result);
    await options.onStep?.(result);
  }
  return history;
}
