import { act } from '../../../oracle-helpers/act.js';
import { find, must, numberIn, quotedValues } from '../../../oracle-helpers/ax-query.js';
import { action, type ChallengeOracle } from '../../oracle/move.js';

/** Clicks the next button of the stated order; the status line says how many are done. */
export const solveClickSequence: ChallengeOracle = (view) => {
  const order = quotedValues(view.instructions.split('. ')[0]!);
  const done = numberIn(view.status, /Progress: (\d+) of/) ?? 0;
  const next = must(order[done], `button number ${done + 1} of the order`);
  return action(act.click(must(find(view.puzzle, 'button', next), `button "${next}"`)));
};
