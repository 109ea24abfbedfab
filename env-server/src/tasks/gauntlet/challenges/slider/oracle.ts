import { act } from '../../../oracle-helpers/act.js';
import { find, must, numberIn, quotedValues, textOf } from '../../../oracle-helpers/ax-query.js';
import { action, type ChallengeOracle } from '../../oracle/move.js';

/** Reads the slider's value, steps it to the target with Page and Arrow keys in one multi-action, then confirms. */
export const solveSlider: ChallengeOracle = (view) => {
  const [label] = quotedValues(view.instructions);
  const target = must(numberIn(view.instructions, /to exactly (\d+)/), 'target value');
  const knob = must(find(view.puzzle, 'slider', label), `slider "${label}"`);
  const now = must(numberIn(textOf(view.puzzle), /Current value: (\d+)/), 'current value');
  if (now === target) return action(act.click(must(find(view.puzzle, 'button', 'Confirm'), 'button "Confirm"')));
  const diff = target - now;
  const tens = Math.floor(Math.abs(diff) / 10);
  const ones = Math.abs(diff) % 10;
  const keys = [
    ...Array<string>(tens).fill(diff > 0 ? 'PageUp' : 'PageDown'),
    ...Array<string>(ones).fill(diff > 0 ? 'ArrowRight' : 'ArrowLeft'),
  ];
  return action(act.chain(...keys.map((key) => act.press(knob, key))));
};
