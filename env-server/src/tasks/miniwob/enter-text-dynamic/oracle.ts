import type { OraclePolicy } from '../oracle.js';
import { parseAxtree } from '../../policy/axtree-lines.js';
import { act, findOne, quoted } from '../../policy/ax-query.js';

/** Clear a wrong value, fill the text, Submit. */
export const enterTextDynamicOracle: OraclePolicy = (view) => {
  const text = quoted(view.goal, 0);
  const nodes = parseAxtree(view.axtree_txt);
  const field = findOne(nodes, 'textbox');
  const value = field.value ?? '';
  if (value === text) return act.click(findOne(nodes, 'button', (name) => name === 'Submit'));
  if (value !== '') return act.clear(field);
  return act.fill(field, text);
};
