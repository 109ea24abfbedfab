import type { OraclePolicy } from '../oracle.js';
import { parseAxtree } from '../../policy/axtree-lines.js';
import { act, findOne, quoted } from '../../policy/ax-query.js';

/** Select the named entry unless the list already shows it, then Submit. */
export const chooseListOracle: OraclePolicy = (view) => {
  const wanted = quoted(view.goal, 0);
  const nodes = parseAxtree(view.axtree_txt);
  const list = findOne(nodes, 'combobox');
  if (list.value !== wanted) return act.select(list, wanted);
  return act.click(findOne(nodes, 'button', (name) => name === 'Submit'));
};
