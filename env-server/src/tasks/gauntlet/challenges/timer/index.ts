import { defineChallengeType } from '../../challenge-type.js';
import { timerDecoy } from './decoy.js';
import { timer } from './challenge.js';
import { solveTimer } from './oracle.js';

export const timerType = defineChallengeType({
  order: 11,
  category: 'timing',
  challenge: timer,
  oracle: solveTimer,
  wallClock: true,
  recognise: { rank: 20, matches: (t) => /page clock/.test(t) },
  decoy: timerDecoy,
});
