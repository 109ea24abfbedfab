import { act, parseAxtree, mustFind, quotedInGoal, type OraclePolicy } from '../oracle.js';

/** Fills the field until it shows the text, then submits. */
export const enterTextOracle: OraclePolicy = (view) => {
  const text = quotedInGoal(view.goal, 0);
  const nodes = parseAxtree(view.axtree_txt);
  const field = mustFind(nodes, 'textbox', () => true);
  if (field.value !== text) return act.fill(field, text);
  return act.click(mustFind(nodes, 'button', (name) => name === 'Submit'));
};
