import { defineChallengeType } from '../../challenge-type.js';
import { websocketDecoy } from './decoy.js';
import { websocket } from './challenge.js';
import { solveWebsocket } from './oracle.js';

export const websocketType = defineChallengeType({
  order: 13,
  category: 'timing',
  challenge: websocket,
  oracle: solveWebsocket,
  recognise: { rank: 10, matches: (t) => /code server/.test(t) },
  decoy: websocketDecoy,
});
