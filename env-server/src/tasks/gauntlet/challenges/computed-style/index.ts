import { defineChallengeType } from '../../challenge-type.js';
import { computedStyle } from './challenge.js';
import { solveComputedStyle } from './oracle.js';

export const computedStyleType = defineChallengeType({
  order: 9,
  category: 'hidden_content',
  challenge: computedStyle,
  oracle: solveComputedStyle,
});
