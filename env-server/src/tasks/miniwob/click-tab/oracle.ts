import type { OraclePolicy } from '../oracle.js';
import { parseAxtree } from '../../policy/axtree-lines.js';
import { act, findOne, fromGoal } from '../../policy/ax-query.js';

export const clickTabOracle: OraclePolicy = (view) => {
  const tab = fromGoal(view.goal, /^Click on (Tab #\d+)\.$/);
  return act.click(findOne(parseAxtree(view.axtree_txt), 'tab', (name) => name === tab));
};
