import type { ChallengeType } from './categories.js';
import type { Renderer } from './page/contract.js';
import type { Rng } from './rng.js';

/**
 * One challenge type: seeded parameters made on the server, and the page code that draws the
 * puzzle from them. `render` is shipped to the page as source text, so it may use only its
 * argument and browser globals — nothing imported or defined outside its own body.
 */
export interface Challenge<P = unknown> {
  readonly type: ChallengeType;
  /** Human title for listings and docs (the page never shows it: headings are neutral). */
  readonly title: string;
  /**
   * Everything the page needs except the code: layout, decoys, delays, derived strings. `code`
   * is given so derived text (cipher text, scrambled tiles) can be built from it; the plan
   * rejects params that contain the code verbatim.
   */
  generate(rng: Rng, code: string): P;
  readonly render: Renderer<P>;
  /** Styles the puzzle needs (scoped by the `.puzzle.<type>` class); the shell inlines them. */
  readonly css?: string;
}

/** Declares a challenge with its params type checked between generate and render. */
export function defineChallenge<P>(challenge: Challenge<P>): Challenge<P> {
  return challenge;
}

/** A challenge with its params type erased, for lists of mixed challenges. */
export interface AnyChallenge {
  readonly type: ChallengeType;
  readonly title: string;
  generate(rng: Rng, code: string): unknown;
  readonly render: Renderer<never>;
  readonly css?: string;
}
