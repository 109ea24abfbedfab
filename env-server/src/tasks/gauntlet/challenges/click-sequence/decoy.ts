import { act } from '../../../oracle-helpers/act.js';
import { findAll, numberIn, quotedValues } from '../../../oracle-helpers/ax-query.js';
import type { Decoy } from '../../oracle/decoy.js';

/** A plausible wrong move in this puzzle, for preference data. */
export const clickSequenceDecoy: Decoy = (v) => {
  const order = quotedValues(v.instructions.split('. ')[0]!);
  const next = order[numberIn(v.status, /Progress: (\d+) of/) ?? 0];
  const wrong = findAll(v.puzzle, 'button').find((b) => b.name !== next);
  return wrong && act.click(wrong);
};
