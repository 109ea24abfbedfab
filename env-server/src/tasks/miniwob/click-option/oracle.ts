import type { OraclePolicy } from '../oracle.js';
import { parseAxtree } from '../../policy/axtree-lines.js';
import { act, findOne, hasState, quoted } from '../../policy/ax-query.js';

/** Choose the named radio button, then Submit. */
export const clickOptionOracle: OraclePolicy = (view) => {
  const wanted = quoted(view.goal, 0);
  const nodes = parseAxtree(view.axtree_txt);
  const radio = findOne(nodes, 'radio', (name) => name === wanted);
  if (!hasState(radio, 'checked')) return act.click(radio);
  return act.click(findOne(nodes, 'button', (name) => name === 'Submit'));
};
