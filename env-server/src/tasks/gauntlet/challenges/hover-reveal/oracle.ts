import { act } from '../../../oracle-helpers/act.js';
import { find, must, numberIn, quotedValues } from '../../../oracle-helpers/ax-query.js';
import { action, type ChallengeOracle } from '../../oracle/move.js';

/** Hovers the named card, then waits out the stated dwell time without moving. */
export const solveHoverReveal: ChallengeOracle = (view) => {
  const [target] = quotedValues(view.instructions);
  if (view.status.startsWith(`Holding on "${target}"`)) {
    return action(act.noop(must(numberIn(view.instructions, /for (\d+) ms/), 'dwell time') + 40));
  }
  return action(act.hover(must(find(view.puzzle, 'region', `${target} card`), `card "${target}"`)));
};
