import { defineChallengeType } from '../../challenge-type.js';
import { dragAndDropDecoy } from './decoy.js';
import { dragAndDrop } from './challenge.js';
import { solveDragAndDrop } from './oracle.js';

export const dragAndDropType = defineChallengeType({
  order: 5,
  category: 'input',
  challenge: dragAndDrop,
  oracle: solveDragAndDrop,
  recognise: { rank: 70, matches: (t) => /drop zone/.test(t) },
  decoy: dragAndDropDecoy,
});
