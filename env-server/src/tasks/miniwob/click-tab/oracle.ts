import { act, parseAxtree, mustFind, fromGoal, type OraclePolicy } from '../oracle.js';

export const clickTabOracle: OraclePolicy = (view) => {
  const tab = fromGoal(view.goal, /^Click on (Tab #\d+)\.$/);
  return act.click(mustFind(parseAxtree(view.axtree_txt), 'tab', (name) => name === tab));
};
