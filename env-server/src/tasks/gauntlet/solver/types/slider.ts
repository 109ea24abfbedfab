import { act } from '../act.js';
import { find, must, numberIn, quotedValues } from '../ax.js';
import { action, type ChallengeSolver } from '../move.js';

/** Sets the range input to the stated value with `fill` (it commits the value like a release). */
export const solveSlider: ChallengeSolver = (view) => {
  const [label] = quotedValues(view.instructions);
  const target = must(numberIn(view.instructions, /to exactly (\d+)/), 'target value');
  return action(act.fill(must(find(view.puzzle, 'slider', label), `slider "${label}"`), String(target)));
};
