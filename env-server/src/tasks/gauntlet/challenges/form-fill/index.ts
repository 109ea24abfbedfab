import { defineChallengeType } from '../../challenge-type.js';
import { formFill } from './challenge.js';
import { solveFormFill } from './oracle.js';

export const formFillType = defineChallengeType({
  order: 4,
  category: 'input',
  challenge: formFill,
  oracle: solveFormFill,
});
