import { defineChallengeType } from '../../challenge-type.js';
import { cookieStorage } from './challenge.js';
import { solveCookieStorage } from './oracle.js';

export const cookieStorageType = defineChallengeType({
  order: 20,
  category: 'advanced',
  challenge: cookieStorage,
  oracle: solveCookieStorage,
  recognise: { rank: 30, matches: (t) => /"Stored data"/.test(t) },
});
