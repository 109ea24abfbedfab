import { act } from '../../../oracle-helpers/act.js';
import { find, must, quotedValues, region } from '../../../oracle-helpers/ax-query.js';
import { action, type ChallengeOracle } from '../../oracle/move.js';

/** Drags the next wanted item that is still outside the zone onto the zone. */
export const solveDragAndDrop: ChallengeOracle = (view) => {
  const [zone, ...wanted] = quotedValues(view.instructions);
  const source = must(region(view.puzzle, 'list', 'Items'), 'list "Items"');
  const next = wanted.map((name) => find(source, 'listitem', name)).find((item) => item !== undefined);
  const target = must(find(view.puzzle, 'region', `${zone} drop zone`), `drop zone "${zone}"`);
  return action(act.dragAndDrop(must(next, 'a wanted item left to drag'), target));
};
