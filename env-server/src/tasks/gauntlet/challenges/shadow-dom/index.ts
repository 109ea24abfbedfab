import { defineChallengeType } from '../../challenge-type.js';
import { shadowDomDecoy } from './decoy.js';
import { shadowDom } from './challenge.js';
import { solveShadowDom } from './oracle.js';

export const shadowDomType = defineChallengeType({
  order: 7,
  category: 'hidden_content',
  challenge: shadowDom,
  oracle: solveShadowDom,
  recognise: { rank: 110, matches: (t) => /nested panels/.test(t) },
  decoy: shadowDomDecoy,
});
