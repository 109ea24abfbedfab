import { defineChallengeType } from '../../challenge-type.js';
import { slider } from './challenge.js';
import { solveSlider } from './oracle.js';

export const sliderType = defineChallengeType({
  order: 6,
  category: 'input',
  challenge: slider,
  oracle: solveSlider,
  recognise: { rank: 100, matches: (t) => /slider/.test(t) },
});
