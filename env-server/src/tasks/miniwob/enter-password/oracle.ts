import { act, parseAxtree, mustFind, quotedInGoal, showsSecret, type OraclePolicy } from '../oracle.js';

/** Fill whichever password field does not yet show the password (Chrome masks it), then Submit. */
export const enterPasswordOracle: OraclePolicy = (view) => {
  const password = quotedInGoal(view.goal, 0);
  const nodes = parseAxtree(view.axtree_txt);
  for (const label of ['Password', 'Verify password']) {
    const field = mustFind(nodes, 'textbox', (name) => name === label);
    if (!showsSecret(field.value, password)) return act.fill(field, password);
  }
  return act.click(mustFind(nodes, 'button', (name) => name === 'Submit'));
};
