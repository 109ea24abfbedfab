import { act } from '../../../oracle-helpers/act.js';
import { findAll } from '../../../oracle-helpers/ax-query.js';
import type { Decoy } from '../../oracle/decoy.js';

/** A plausible wrong move in this puzzle, for preference data. */
export const iframeDecoy: Decoy = (v) => {
  const press = /Press "([^"]+)" inside/.exec(v.instructions)?.[1];
  const other = findAll(v.puzzle, 'button').find((b) => b.name !== press);
  return other && act.click(other);
};
