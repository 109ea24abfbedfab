import type { TrainSequence } from './batch.js';

/**
 * Tokens one forward/backward pass may hold (rows × padded length) when no micro-batch size is
 * given: attention's memory grows with the square of the length, and a batch of 8 × 4096 tokens
 * took ~10 GB in one pass. Results do not depend on how a batch is split.
 */
export const MICRO_BATCH_TOKENS = 8192;

/**
 * Row indices of `batch` grouped into passes, longest first (rows of similar length pad least):
 * `size` rows per pass when given, else as many as fit MICRO_BATCH_TOKENS at the pass's longest
 * length (at least one row, however long).
 */
export function microBatches(batch: readonly TrainSequence[], size?: number): number[][] {
  const order = batch.map((_, i) => i).sort((a, b) => batch[b]!.tokens.length - batch[a]!.tokens.length);
  const passes: number[][] = [];
  for (let start = 0; start < order.length;) {
    const longest = batch[order[start]!]!.tokens.length;
    const rows = size ?? Math.max(1, Math.floor(MICRO_BATCH_TOKENS / longest));
    passes.push(order.slice(start, start + rows));
    start += rows;
  }
  return passes;
}
