import { find, click, fill, quotedInGoal, parseAxtree, type OraclePolicy } from '../oracle.js';
import { clear } from '../oracle-extras.js';

/** Clear a wrong value, fill the text, Submit. */
export const enterTextDynamicOracle: OraclePolicy = (view) => {
  const text = quotedInGoal(view.goal, 0);
  const nodes = parseAxtree(view.axtree_txt);
  const field = find(nodes, 'textbox', () => true);
  const value = field.value ?? '';
  if (value === text) return click(find(nodes, 'button', (name) => name === 'Submit'));
  if (value !== '') return clear(field);
  return fill(field, text);
};
