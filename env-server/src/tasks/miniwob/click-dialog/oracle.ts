import { find, click, quotedInGoal, parseAxtree, type OraclePolicy } from '../oracle.js';

/** Click the dialog button the goal quotes (the close "×"). */
export const clickDialogOracle: OraclePolicy = (view) => {
  const label = quotedInGoal(view.goal, 0);
  return click(find(parseAxtree(view.axtree_txt), 'button', (name) => name === label));
};
