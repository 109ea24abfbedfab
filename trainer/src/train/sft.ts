import type { RunOptions } from '../engine/runtime.js';
import { seededRandom } from '../engine/random.js';
import type { TrainSequence } from './batch.js';
import type { LoraTrainer, StepResult } from './trainer.js';

export interface SftExample {
  prompt: readonly number[];
  completion: readonly number[];
}

/** Trains on the completion only: the prompt's tokens are context, never targets. */
export function sftSequence(example: SftExample): TrainSequence {
  if (example.prompt.length === 0) throw new RangeError('SFT example: the prompt must have at least one token');
  if (example.completion.length === 0) throw new RangeError('SFT example: the completion is empty');
  return {
    tokens: [...example.prompt, ...example.completion],
    mask: [...example.prompt.map(() => 0), ...example.completion.map(() => 1)],
  };
}

export interface SftOptions extends RunOptions {
  steps: number;
  batchSize: number;
  /** Shuffling seed; same seed, same order. */
  seed?: number;
  /** Steps already taken (a resumed run): their batches are skipped, so the data order continues. */
  startStep?: number;
  /** Called after every optimizer step with its batch; awaited, so it may save a checkpoint. */
  onStep?: (result: StepResult, batch: readonly TrainSequence[]) => void | Promise<void>;
}

/** Supervised fine-tuning: reshuffled passes over the examples, one optimizer step per batch. */
export async function runSft(
  trainer: LoraTrainer,
  examples: readonly SftExample[],
  options: SftOptions,
): Promise<StepResult[]> {
  return runSftSequences(trainer, examples.map(sftSequence), options);
}

/** runSft over sequences already tokenised and masked (e.g. chat data: several trained turns each). */
export async function runSftSequences(
  trainer: LoraTrainer,
  sequences: readonly TrainSequence[],
  options: SftOptions,
): Promise<StepResult[]> {
  if (sequences.length === 0) throw new RangeError('SFT needs at least one example');
  const batches = shuffledBatches(sequences.length, options.batchSize, options.seed ?? 0);
  const history: StepResult[] = [];
  for (let step = 0; step < (options.startStep ?? 0); step++) batches.next();
  for (let step = options.startStep ?? 0; step < options.steps; step++) {
    const batch = batches.next().value.map((i) => sequences[i]!);
    const result = await trainer.trainStep(batch, options);
    history.push(result);
    await options.onStep?.(result, batch);
  }
  return history;
}

/**
 * Endless batches of min(size, n) indices into n examples, drawn from reshuffled passes (a batch
 * may straddle two passes): same seed, same batches.
 */
export function* shuffledBatches(n: number, size: number, seed: number): Generator<number[], never> {
  const random = seededRandom(seed);
  let order: number[] = [];
  for (;;) {
    const batch: number[] = [];
    while (batch.length < Math.min(size, n)) {
      if (order.length === 0) order = shuffle(n, random);
      batch.push(order.pop()!);
    }
    yield batch;
  }
}

function shuffle(n: number, random: () => number): number[] {
  const a = [...Array(n).keys()];
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}
