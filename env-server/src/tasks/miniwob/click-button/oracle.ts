import { click, find, parseAxtree, quotedInGoal, type OraclePolicy } from '../oracle.js';

export const clickButtonOracle: OraclePolicy = (view) => {
  const label = quotedInGoal(view.goal, 0);
  return click(find(parseAxtree(view.axtree_txt), 'button', (name) => name === label));
};
