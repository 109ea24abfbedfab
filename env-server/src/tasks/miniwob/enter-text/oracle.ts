import { click, fill, find, parseAxtree, quotedInGoal, type OraclePolicy } from '../oracle.js';

/** Fills the field until it shows the text, then submits. */
export const enterTextOracle: OraclePolicy = (view) => {
  const text = quotedInGoal(view.goal, 0);
  const nodes = parseAxtree(view.axtree_txt);
  const field = find(nodes, 'textbox', () => true);
  if (field.value !== text) return fill(field, text);
  return click(find(nodes, 'button', (name) => name === 'Submit'));
};
