import { defineChallengeType } from '../../challenge-type.js';
import { audio } from './challenge.js';
import { solveAudio } from './oracle.js';

export const audioType = defineChallengeType({
  order: 15,
  category: 'media',
  challenge: audio,
  oracle: solveAudio,
  wallClock: true,
  recognise: { rank: 160, matches: (t) => /\bclip\b/.test(t) && !/video/i.test(t) },
});
