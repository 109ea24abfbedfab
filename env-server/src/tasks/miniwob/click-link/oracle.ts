import { act, parseAxtree, mustFind, quotedInGoal, type OraclePolicy } from '../oracle.js';

export const clickLinkOracle: OraclePolicy = (view) => {
  const text = quotedInGoal(view.goal, 0);
  return act.click(mustFind(parseAxtree(view.axtree_txt), 'link', (name) => name === text));
};
