import { clickNamed, type Decoy } from '../../oracle/decoy.js';

/** A plausible wrong move in this puzzle, for preference data. */
export const timerDecoy: Decoy = (v) => clickNamed(v, 'Press');
