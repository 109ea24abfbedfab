import { defineChallengeType } from '../../challenge-type.js';
import { animatedButtonDecoy } from './decoy.js';
import { animatedButton } from './challenge.js';
import { solveAnimatedButton } from './oracle.js';

export const animatedButtonType = defineChallengeType({
  order: 12,
  category: 'timing',
  challenge: animatedButton,
  oracle: solveAnimatedButton,
  wallClock: true,
  recognise: { rank: 180, matches: (t) => /slides right/.test(t) },
  decoy: animatedButtonDecoy,
});
