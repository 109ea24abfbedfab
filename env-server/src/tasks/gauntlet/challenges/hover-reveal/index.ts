import { defineChallengeType } from '../../challenge-type.js';
import { hoverReveal } from './challenge.js';
import { solveHoverReveal } from './oracle.js';

export const hoverRevealType = defineChallengeType({
  order: 3,
  category: 'navigation',
  challenge: hoverReveal,
  oracle: solveHoverReveal,
  recognise: { rank: 90, matches: (t) => /^Hover over/.test(t) },
});
