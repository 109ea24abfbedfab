import { click, quotedInGoal, parseAxtree, OracleError, type OraclePolicy } from '../oracle.js';
import { allWithBid, hasState } from '../oracle-extras.js';

/** Click the named item once visible; until then open the first closed folder (depth-first search). */
export const navigateTreeOracle: OraclePolicy = (view) => {
  const wanted = quotedInGoal(view.goal, 0);
  const items = allWithBid(parseAxtree(view.axtree_txt), 'treeitem');
  const hit = items.find((item) => item.name === wanted);
  if (hit) return click(hit);
  const closed = items.find((item) => item.props.has('expanded') && !hasState(item, 'expanded'));
  if (!closed) throw new OracleError(`every folder is open and "${wanted}" is not in the tree`);
  return click(closed);
};
