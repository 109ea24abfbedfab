import type { OraclePolicy } from '../oracle.js';
import { parseAxtree } from '../../policy/axtree-lines.js';
import { act, findOne, quoted } from '../../policy/ax-query.js';

/** Click the dialog button the goal quotes (the close "×"). */
export const clickDialogOracle: OraclePolicy = (view) => {
  const label = quoted(view.goal, 0);
  return act.click(findOne(parseAxtree(view.axtree_txt), 'button', (name) => name === label));
};
