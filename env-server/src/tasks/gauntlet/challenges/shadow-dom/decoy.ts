import { act } from '../../../oracle-helpers/act.js';
import { findAll, quotedValues } from '../../../oracle-helpers/ax-query.js';
import type { Decoy } from '../../oracle/decoy.js';

/** A plausible wrong move in this puzzle, for preference data. */
export const shadowDomDecoy: Decoy = (v) => {
  const press = quotedValues(v.instructions.split(' and press ')[1] ?? '')[0];
  const other = findAll(v.puzzle, 'button').find((b) => b.name !== press);
  return other && act.click(other);
};
