import { defineChallengeType } from '../../challenge-type.js';
import { multiStep } from './challenge.js';
import { solveMultiStep } from './oracle.js';

export const multiStepType = defineChallengeType({
  order: 17,
  category: 'advanced',
  challenge: multiStep,
  oracle: solveMultiStep,
  recognise: { rank: 50, matches: (t) => /^Three stages/.test(t) },
});
