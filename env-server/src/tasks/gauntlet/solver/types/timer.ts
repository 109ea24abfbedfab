import { act } from '../act.js';
import { find, must, numberIn } from '../ax.js';
import { action, type ChallengeSolver } from '../move.js';

/** Waits out the stated countdown (never presses early), then presses Reveal. */
export const solveTimer: ChallengeSolver = (view) => {
  if (/Countdown finished/.test(view.status))
    return action(act.click(must(find(view.puzzle, 'button', 'Reveal code'), 'button "Reveal code"')));
  const delay = must(numberIn(view.instructions, /unlocks (\d+) ms/), 'countdown length');
  return action(act.noop(delay + 30));
};
