import { defineChallengeType } from '../../challenge-type.js';
import { clickSequenceDecoy } from './decoy.js';
import { clickSequence } from './challenge.js';
import { solveClickSequence } from './oracle.js';

export const clickSequenceType = defineChallengeType({
  order: 2,
  category: 'navigation',
  challenge: clickSequence,
  oracle: solveClickSequence,
  recognise: { rank: 80, matches: (t) => /Click the buttons in this order/.test(t) },
  decoy: clickSequenceDecoy,
});
