import { defineChallengeType } from '../../challenge-type.js';
import { modalDecoyWrongClose } from './decoy.js';
import { modalDecoy } from './challenge.js';
import { solveModalDecoy } from './oracle.js';

export const modalDecoyType = defineChallengeType({
  order: 21,
  category: 'advanced',
  challenge: modalDecoy,
  oracle: solveModalDecoy,
  recognise: { rank: 40, matches: (t) => /popups? (are|is) open/i.test(t) },
  decoy: modalDecoyWrongClose,
});
