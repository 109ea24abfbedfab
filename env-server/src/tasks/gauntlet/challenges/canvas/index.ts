import { defineChallengeType } from '../../challenge-type.js';
import { canvas } from './challenge.js';
import { solveCanvas } from './oracle.js';

export const canvasType = defineChallengeType({
  order: 14,
  category: 'media',
  challenge: canvas,
  oracle: solveCanvas,
  recognise: { rank: 150, matches: (t) => /^Draw one stroke/.test(t) },
});
