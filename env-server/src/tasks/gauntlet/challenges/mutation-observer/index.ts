import { defineChallengeType } from '../../challenge-type.js';
import { mutationObserver } from './challenge.js';
import { solveMutationObserver } from './oracle.js';

export const mutationObserverType = defineChallengeType({
  order: 10,
  category: 'hidden_content',
  challenge: mutationObserver,
  oracle: solveMutationObserver,
  wallClock: true,
  recognise: { rank: 140, matches: (t) => /flash in the box/.test(t) },
});
