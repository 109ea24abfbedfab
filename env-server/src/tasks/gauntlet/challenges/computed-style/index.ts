import { defineChallengeType } from '../../challenge-type.js';
import { computedStyleMisreading } from './misreading.js';
import { computedStyle } from './challenge.js';
import { solveComputedStyle } from './oracle.js';

export const computedStyleType = defineChallengeType({
  order: 9,
  category: 'hidden_content',
  challenge: computedStyle,
  oracle: solveComputedStyle,
  recognise: { rank: 130, matches: (t) => /CSS draws/.test(t) },
  misreading: computedStyleMisreading,
});
