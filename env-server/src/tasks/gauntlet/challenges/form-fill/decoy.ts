import { quotedValues } from '../../../oracle-helpers/ax-query.js';
import { clickNamed, type Decoy } from '../../oracle/decoy.js';

/** A plausible wrong move in this puzzle, for preference data. */
export const formFillDecoy: Decoy = (v) => {
  const submit = quotedValues(v.instructions.split('. Tick ')[1] ?? '')[1];
  return submit ? clickNamed(v, submit) : undefined;
};
