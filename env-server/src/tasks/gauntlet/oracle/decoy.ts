import { act } from '../../oracle-helpers/act.js';
import { find } from '../../oracle-helpers/ax-query.js';
import type { StepView } from './step-view.js';

/**
 * A plausible wrong move in a step, for preference data: what a careless agent would do here. It
 * must fail verifiably (a puzzle mistake or an action error); the DPO probe checks that before
 * keeping a pair. Undefined when the state offers none.
 */
export type Decoy = (view: StepView) => string | undefined;

/** Codes a careless reader takes from the page (readings of it, not code-like strings on it). */
export type Misreading = (view: StepView) => string[];

/** A click on the puzzle's button of that name, if it has one. */
export function clickNamed(view: StepView, name: string): string | undefined {
  const button = find(view.puzzle, 'button', name);
  return button && act.click(button);
}
