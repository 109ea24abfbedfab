import { find, click, quotedInGoal, parseAxtree, type OraclePolicy } from '../oracle.js';
import { selectOption } from '../oracle-extras.js';

/** Select the named entry unless the list already shows it, then Submit. */
export const chooseListOracle: OraclePolicy = (view) => {
  const wanted = quotedInGoal(view.goal, 0);
  const nodes = parseAxtree(view.axtree_txt);
  const list = find(nodes, 'combobox', () => true);
  if (list.value !== wanted) return selectOption(list, wanted);
  return click(find(nodes, 'button', (name) => name === 'Submit'));
};
