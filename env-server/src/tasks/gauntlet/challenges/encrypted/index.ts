import { defineChallengeType } from '../../challenge-type.js';
import { encrypted } from './challenge.js';
import { solveEncrypted } from './oracle.js';

export const encryptedType = defineChallengeType({
  order: 19,
  category: 'advanced',
  challenge: encrypted,
  oracle: solveEncrypted,
  recognise: { rank: 200, matches: (t) => /encrypted/.test(t) },
});
