import { act } from '../../../oracle-helpers/act.js';
import { below, findAll, must, quotedValues } from '../../../oracle-helpers/ax-query.js';
import { action, type ChallengeOracle } from '../../oracle/move.js';

/** Closes popups above the named one (topmost first) with the stated closing button, then the named one. */
export const solveModalDecoy: ChallengeOracle = (view) => {
  const [target, closes] = quotedValues(view.instructions).filter((q) => q !== '×');
  const dialogs = view.puzzle.map((n, i) => [n, i] as const).filter(([n]) => n.role === 'dialog');
  const at = dialogs.findIndex(([n]) => n.name === target);
  const [popup, index] = must(dialogs[at], `popup "${target}"`);
  const above = dialogs.slice(at + 1);
  const [closeNode, closeIndex] = above.length ? above[above.length - 1]! : [popup, index];
  const inside = below(view.puzzle, closeIndex);
  return action(act.click(must(findAll(inside, 'button', closes)[0], `button "${closes}" of "${closeNode.name}"`)));
};
