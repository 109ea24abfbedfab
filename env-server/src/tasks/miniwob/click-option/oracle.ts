import { find, click, quotedInGoal, parseAxtree, type OraclePolicy } from '../oracle.js';
import { hasState } from '../oracle-extras.js';

/** Choose the named radio button, then Submit. */
export const clickOptionOracle: OraclePolicy = (view) => {
  const wanted = quotedInGoal(view.goal, 0);
  const nodes = parseAxtree(view.axtree_txt);
  const radio = find(nodes, 'radio', (name) => name === wanted);
  if (!hasState(radio, 'checked')) return click(radio);
  return click(find(nodes, 'button', (name) => name === 'Submit'));
};
