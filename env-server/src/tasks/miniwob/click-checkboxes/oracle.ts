import { find, click, parseAxtree, type OraclePolicy } from '../oracle.js';
import { allWithBid, hasState, quotedValues } from '../oracle-extras.js';

/** Toggle the first checkbox whose state differs from the goal's list, then Submit. */
export const clickCheckboxesOracle: OraclePolicy = (view) => {
  const wanted = quotedValues(view.goal);
  const nodes = parseAxtree(view.axtree_txt);
  const wrong = allWithBid(nodes, 'checkbox').find((box) => hasState(box, 'checked') !== wanted.includes(box.name));
  if (wrong) return click(wrong);
  return click(find(nodes, 'button', (name) => name === 'Submit'));
};
