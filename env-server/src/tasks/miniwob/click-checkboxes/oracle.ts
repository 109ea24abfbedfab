import type { OraclePolicy } from '../oracle.js';
import { parseAxtree } from '../../policy/axtree-lines.js';
import { act, allWithBid, findOne, hasState, quotedValues } from '../../policy/ax-query.js';

/** Toggle the first checkbox whose state differs from the goal's list, then Submit. */
export const clickCheckboxesOracle: OraclePolicy = (view) => {
  const wanted = quotedValues(view.goal);
  const nodes = parseAxtree(view.axtree_txt);
  const wrong = allWithBid(nodes, 'checkbox').find((box) => hasState(box, 'checked') !== wanted.includes(box.name));
  if (wrong) return act.click(wrong);
  return act.click(findOne(nodes, 'button', (name) => name === 'Submit'));
};
