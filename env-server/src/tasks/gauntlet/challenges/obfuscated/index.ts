import { defineChallengeType } from '../../challenge-type.js';
import { obfuscated } from './challenge.js';
import { solveObfuscated } from './oracle.js';

export const obfuscatedType = defineChallengeType({
  order: 18,
  category: 'advanced',
  challenge: obfuscated,
  oracle: solveObfuscated,
  recognise: { rank: 190, matches: (t) => /Rule:/.test(t) },
});
