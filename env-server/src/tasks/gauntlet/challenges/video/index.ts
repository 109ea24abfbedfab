import { defineChallengeType } from '../../challenge-type.js';
import { video } from './challenge.js';
import { solveVideo } from './oracle.js';

export const videoType = defineChallengeType({
  order: 16,
  category: 'media',
  challenge: video,
  oracle: solveVideo,
  wallClock: true,
  recognise: { rank: 170, matches: (t) => /video/i.test(t) },
});
