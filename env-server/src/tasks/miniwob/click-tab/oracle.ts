import { find, click, parseAxtree, type OraclePolicy } from '../oracle.js';
import { fromGoal } from '../oracle-extras.js';

export const clickTabOracle: OraclePolicy = (view) => {
  const tab = fromGoal(view.goal, /^Click on (Tab #\d+)\.$/);
  return click(find(parseAxtree(view.axtree_txt), 'tab', (name) => name === tab));
};
