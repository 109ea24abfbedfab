import { act } from '../../../oracle-helpers/act.js';
import { below, findAll, quotedValues } from '../../../oracle-helpers/ax-query.js';
import type { Decoy } from '../../oracle/decoy.js';

/** A plausible wrong move in this puzzle, for preference data. */
export const modalDecoyWrongClose: Decoy = (v) => {
  const closes = quotedValues(v.instructions).filter((q) => q !== '×')[1];
  const dialogs = v.puzzle.map((n, i) => [n, i] as const).filter(([n]) => n.role === 'dialog');
  const top = dialogs[dialogs.length - 1];
  const fake = top && findAll(below(v.puzzle, top[1]), 'button').find((b) => b.name !== closes);
  return fake && act.click(fake);
};
