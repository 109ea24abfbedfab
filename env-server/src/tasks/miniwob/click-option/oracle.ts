import { act, hasState, parseAxtree, mustFind, quotedInGoal, type OraclePolicy } from '../oracle.js';

/** Choose the named radio button, then Submit. */
export const clickOptionOracle: OraclePolicy = (view) => {
  const wanted = quotedInGoal(view.goal, 0);
  const nodes = parseAxtree(view.axtree_txt);
  const radio = mustFind(nodes, 'radio', (name) => name === wanted);
  if (!hasState(radio, 'checked')) return act.click(radio);
  return act.click(mustFind(nodes, 'button', (name) => name === 'Submit'));
};
