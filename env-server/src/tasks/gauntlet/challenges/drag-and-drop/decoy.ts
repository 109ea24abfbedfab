import { act } from '../../../oracle-helpers/act.js';
import { find, findAll, quotedValues, region } from '../../../oracle-helpers/ax-query.js';
import type { Decoy } from '../../oracle/decoy.js';

/** A plausible wrong move in this puzzle, for preference data. */
export const dragAndDropDecoy: Decoy = (v) => {
  const [zone, ...wanted] = quotedValues(v.instructions);
  const unwanted = findAll(region(v.puzzle, 'list', 'Items') ?? [], 'listitem').find((i) => !wanted.includes(i.name));
  const target = find(v.puzzle, 'region', `${zone} drop zone`);
  return unwanted && target && act.dragAndDrop(unwanted, target);
};
