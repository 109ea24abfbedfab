import { act, parseAxtree, mustFind, quotedInGoal, type OraclePolicy } from '../oracle.js';

export const clickButtonOracle: OraclePolicy = (view) => {
  const label = quotedInGoal(view.goal, 0);
  return act.click(mustFind(parseAxtree(view.axtree_txt), 'button', (name) => name === label));
};
