import type { Actionable } from '../../oracle-helpers/act.js';
import type { AxNode } from '../../oracle-helpers/axtree-lines.js';
import type { ChallengeType } from '../categories.js';

// The step view's shapes alone: a type's oracle, decoy and spec name them without importing
// view.ts, whose reader recognises puzzles through the discovered types (an import circle).

/** One Gauntlet step as the oracle reads it from the AXTree text (its type recognised from the puzzle). */
export interface StepView {
  kind: 'step';
  nodes: AxNode[];
  step: number;
  total: number;
  type: ChallengeType;
  instructions: string;
  /** The "Puzzle status" line (progress and feedback). */
  status: string;
  /** Everything inside the "Puzzle" region. */
  puzzle: AxNode[];
  /** The code in a "Revealed code" region, when one is on the page. */
  revealed: string | undefined;
  codeBox: Actionable;
  submit: Actionable;
  /** A wrong-code alert is showing. */
  wrongAlert: boolean;
}

/** Pages that are not a step: a locked direct URL, the finished run, or no run at all. */
export interface OtherView {
  kind: 'locked' | 'done' | 'empty';
  nodes: AxNode[];
}
