import { click, fill, find, parseAxtree, quotedInGoal, showsSecret, type OraclePolicy } from '../oracle.js';

/** Username, then password (Chrome masks it: only its length shows), then Login. */
export const loginUserOracle: OraclePolicy = (view) => {
  const username = quotedInGoal(view.goal, 0);
  const password = quotedInGoal(view.goal, 1);
  const nodes = parseAxtree(view.axtree_txt);
  const user = find(nodes, 'textbox', (name) => name === 'Username');
  if (user.value !== username) return fill(user, username);
  const pass = find(nodes, 'textbox', (name) => name === 'Password');
  if (!showsSecret(pass.value, password)) return fill(pass, password);
  return click(find(nodes, 'button', (name) => name.toLowerCase() === 'login'));
};
