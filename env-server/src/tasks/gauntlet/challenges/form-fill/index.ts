import { defineChallengeType } from '../../challenge-type.js';
import { formFillDecoy } from './decoy.js';
import { formFill } from './challenge.js';
import { solveFormFill } from './oracle.js';

export const formFillType = defineChallengeType({
  order: 4,
  category: 'input',
  challenge: formFill,
  oracle: solveFormFill,
  recognise: { rank: 60, matches: (t) => /^Fill in the form/.test(t) },
  decoy: formFillDecoy,
});
