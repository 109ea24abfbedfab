import { act, findAll, hasState, parseAxtree, quotedValues, mustFind, type OraclePolicy } from '../oracle.js';

/** Toggle the first checkbox whose state differs from the goal's list, then Submit. */
export const clickCheckboxesOracle: OraclePolicy = (view) => {
  const wanted = quotedValues(view.goal);
  const nodes = parseAxtree(view.axtree_txt);
  const wrong = findAll(nodes, 'checkbox').find((box) => hasState(box, 'checked') !== wanted.includes(box.name));
  if (wrong) return act.click(wrong);
  return act.click(mustFind(nodes, 'button', (name) => name === 'Submit'));
};
