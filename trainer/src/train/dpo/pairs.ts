import type { TrainSequence } from '../batch.js';
import { REF_LOGPROBS } from '../grpo/loss.js';
import { IS_CHOSEN, PAIR_ID } from './loss.js';

/** A preference pair: one prompt with two completions, each tokenised with its mask of trained tokens. */
export interface DpoPair {
  chosen: TrainSequence;
  rejected: TrainSequence;
}

/** A pair with the reference model's log-probs of each side, aligned with its tokens (0 where not trained). */
export interface ScoredPair extends DpoPair {
  ref: { chosen: ArrayLike<number>; rejected: ArrayLike<number> };
}

/** Every pair must have a trained token on both sides (position 0 is never a target). */
export function validatePair(pair: DpoPair, index: number): void {
  for (const side of ['chosen', 'rejected'] as const) {
    const { mask } = pair[side];
    if (!mask.some((m, t) => t > 0 && m === 1))
      throw new RangeError(`DPO pair ${index}: the ${side} side has no trained token (its completion is empty)`);
  }
}

/**
 * The training rows of some pairs: chosen then rejected, each carrying its pair's index (unique
 * among these rows), which side it is, and its reference log-probs.
 */
export function pairRows(pairs: readonly ScoredPair[]): TrainSequence[] {
  return pairs.flatMap((pair, index) =>
    (['chosen', 'rejected'] as const).map((side) => {
      const row = pair[side];
      const ref = pair.ref[side];
      if (ref.length !== row.tokens.length)
        throw new RangeError(
          `DPO pair ${index}: ${ref.length} reference log-probs for the ${side} side's ${row.tokens.length} tokens`,
        );
      return {
        ...row,
        extras: { [PAIR_ID]: index, [IS_CHOSEN]: side === 'chosen' ? 1 : 0, [REF_LOGPROBS]: Array.from(ref) },
      };
    }),
  );
}
