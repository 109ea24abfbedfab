import { defineChallengeType } from '../../challenge-type.js';
import { scrollToFind } from './challenge.js';
import { solveScrollToFind } from './oracle.js';

export const scrollToFindType = defineChallengeType({
  order: 1,
  category: 'navigation',
  challenge: scrollToFind,
  oracle: solveScrollToFind,
  recognise: { rank: 210, matches: (_t, puzzle) => puzzle.some((n) => n.role === 'region' && n.name === 'Code block') },
});
