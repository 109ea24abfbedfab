import type { AxNode } from '../../oracle-helpers/axtree-lines.js';
import type { ChallengeType } from '../categories.js';
import { CHALLENGE_SPECS } from '../challenges/index.js';

/**
 * Which kind of puzzle a step shows, read the way an agent must: the page never names its type,
 * so the oracle recognises each puzzle by what its instructions ask and what its area holds. Each
 * type's folder gives its rule (`recognise`); they are tried by rank, and the first match wins.
 */
const RULES = [...CHALLENGE_SPECS].sort((a, b) => a.recognise.rank - b.recognise.rank);

export function identifyPuzzle(instructions: string, puzzle: readonly AxNode[]): ChallengeType | undefined {
  return RULES.find((spec) => spec.recognise.matches(instructions, puzzle))?.challenge.type;
}
