import { act, parseAxtree, mustFind, quotedInGoal, type OraclePolicy } from '../oracle.js';

/** Clear a wrong value, fill the text, Submit. */
export const enterTextDynamicOracle: OraclePolicy = (view) => {
  const text = quotedInGoal(view.goal, 0);
  const nodes = parseAxtree(view.axtree_txt);
  const field = mustFind(nodes, 'textbox', () => true);
  const value = field.value ?? '';
  if (value === text) return act.click(mustFind(nodes, 'button', (name) => name === 'Submit'));
  if (value !== '') return act.clear(field);
  return act.fill(field, text);
};
