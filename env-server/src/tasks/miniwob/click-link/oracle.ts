import { click, find, parseAxtree, quotedInGoal, type OraclePolicy } from '../oracle.js';

export const clickLinkOracle: OraclePolicy = (view) => {
  const text = quotedInGoal(view.goal, 0);
  return click(find(parseAxtree(view.axtree_txt), 'link', (name) => name === text));
};
