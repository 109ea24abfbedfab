import { clickNamed, type Decoy } from '../../oracle/decoy.js';

/** A plausible wrong move in this puzzle, for preference data. */
export const websocketDecoy: Decoy = (v) => clickNamed(v, 'Request code');
