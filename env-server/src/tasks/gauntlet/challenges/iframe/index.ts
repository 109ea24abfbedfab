import { defineChallengeType } from '../../challenge-type.js';
import { iframeDecoy } from './decoy.js';
import { iframe } from './challenge.js';
import { solveIframe } from './oracle.js';

export const iframeType = defineChallengeType({
  order: 8,
  category: 'hidden_content',
  challenge: iframe,
  oracle: solveIframe,
  recognise: { rank: 120, matches: (t) => /frame "/.test(t) },
  decoy: iframeDecoy,
});
