// Kept while the oracle folders move: the action builder is shared by every family's oracles.
export { act, type Actionable } from '../../policy/act.js';
