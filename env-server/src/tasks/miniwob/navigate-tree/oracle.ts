import { act, findAll, hasState, OracleError, parseAxtree, quotedInGoal, type OraclePolicy } from '../oracle.js';

/** Click the named item once visible; until then open the first closed folder (depth-first search). */
export const navigateTreeOracle: OraclePolicy = (view) => {
  const wanted = quotedInGoal(view.goal, 0);
  const items = findAll(parseAxtree(view.axtree_txt), 'treeitem');
  const hit = items.find((item) => item.name === wanted);
  if (hit) return act.click(hit);
  const closed = items.find((item) => item.props.has('expanded') && !hasState(item, 'expanded'));
  if (!closed) throw new OracleError(`every folder is open and "${wanted}" is not in the tree`);
  return act.click(closed);
};
