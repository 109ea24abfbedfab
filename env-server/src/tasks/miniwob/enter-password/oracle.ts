import type { OraclePolicy } from '../oracle.js';
import { parseAxtree } from '../../policy/axtree-lines.js';
import { act, findOne, quoted, showsSecret } from '../../policy/ax-query.js';

/** Fill whichever password field does not yet show the password (Chrome masks it), then Submit. */
export const enterPasswordOracle: OraclePolicy = (view) => {
  const password = quoted(view.goal, 0);
  const nodes = parseAxtree(view.axtree_txt);
  for (const label of ['Password', 'Verify password']) {
    const field = findOne(nodes, 'textbox', (name) => name === label);
    if (!showsSecret(field.value, password)) return act.fill(field, password);
  }
  return act.click(findOne(nodes, 'button', (name) => name === 'Submit'));
};
