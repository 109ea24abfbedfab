import type { ChallengeCategory } from './categories.js';
import type { AnyChallenge } from './challenge.js';
import type { Decoy, Misreading } from './oracle/decoy.js';
import type { ChallengeOracle } from './oracle/move.js';
import type { AxNode } from '../oracle-helpers/axtree-lines.js';

/**
 * How the oracle tells this puzzle from the others: the page never names its type, so the rule
 * reads the step's instructions (and, where they are not enough, the puzzle area). Rules are tried
 * by rank, lowest first, and the first that matches wins: a rule that another type's instructions
 * could also satisfy takes a higher rank than that type's.
 */
export interface Recognition {
  readonly rank: number;
  matches(instructions: string, puzzle: readonly AxNode[]): boolean;
}

/**
 * Everything one challenge type is, exported by `challenges/<type>/index.ts`: nothing else lists
 * the types (discovery finds the folders, `discover.ts` checks each has every piece).
 */
export interface ChallengeTypeSpec {
  /**
   * The type's place in the spec's list, from 1. Plans draw from the types in this order, so a
   * seed's run depends on it: a new type takes the next number, and no existing type is renumbered.
   */
  readonly order: number;
  readonly category: ChallengeCategory;
  /** Its params (server) and page code. */
  readonly challenge: AnyChallenge;
  /** How the oracle solves it, from the step's observation. */
  readonly oracle: ChallengeOracle;
  /**
   * Its page moves on its own clock from the moment it renders (a page clock, a sliding button,
   * halves flashing on a cycle, playing media): two looks at the same seed differ by when they
   * look, so tests that compare observations compare only what the clock cannot change.
   */
  readonly wallClock?: boolean;
  /** How the oracle recognises it on the page. */
  readonly recognise: Recognition;
  /** Optional: a plausible wrong move in its puzzle, for DPO pairs (see oracle/decoy.ts). */
  readonly decoy?: Decoy;
  /** Optional: wrong codes a careless reader of its puzzle would enter. */
  readonly misreading?: Misreading;
}

/** Declares a folder's type (typed here, so a missing piece is a compile error before discovery's check). */
export function defineChallengeType(spec: ChallengeTypeSpec): ChallengeTypeSpec {
  return spec;
}

/** The pieces every folder gives (the conformance suite fails without any of them). */
export const CHALLENGE_TYPE_PIECES = ['order', 'category', 'challenge', 'oracle', 'recognise'] as const;
