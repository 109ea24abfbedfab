import { quotedValues } from '../../../oracle-helpers/ax-query.js';
import { clickNamed, type Decoy } from '../../oracle/decoy.js';

/** A plausible wrong move in this puzzle, for preference data. */
export const animatedButtonDecoy: Decoy = (v) => {
  const decoy = quotedValues(v.instructions)[1];
  return decoy ? clickNamed(v, decoy) : undefined;
};
