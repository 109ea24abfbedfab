import { act, parseAxtree, mustFind, quotedInGoal, showsSecret, type OraclePolicy } from '../oracle.js';

/** Username, then password (Chrome masks it: only its length shows), then Login. */
export const loginUserOracle: OraclePolicy = (view) => {
  const username = quotedInGoal(view.goal, 0);
  const password = quotedInGoal(view.goal, 1);
  const nodes = parseAxtree(view.axtree_txt);
  const user = mustFind(nodes, 'textbox', (name) => name === 'Username');
  if (user.value !== username) return act.fill(user, username);
  const pass = mustFind(nodes, 'textbox', (name) => name === 'Password');
  if (!showsSecret(pass.value, password)) return act.fill(pass, password);
  return act.click(mustFind(nodes, 'button', (name) => name.toLowerCase() === 'login'));
};
