import { act, parseAxtree, mustFind, quotedInGoal, type OraclePolicy } from '../oracle.js';

/** Select the named entry unless the list already shows it, then Submit. */
export const chooseListOracle: OraclePolicy = (view) => {
  const wanted = quotedInGoal(view.goal, 0);
  const nodes = parseAxtree(view.axtree_txt);
  const list = mustFind(nodes, 'combobox', () => true);
  if (list.value !== wanted) return act.select(list, wanted);
  return act.click(mustFind(nodes, 'button', (name) => name === 'Submit'));
};
