import type { OraclePolicy } from '../oracle.js';
import { parseAxtree } from '../../policy/axtree-lines.js';
import { OracleError } from '../../policy/action-text.js';
import { act, findOne, hasState, maybeFind } from '../../policy/ax-query.js';

/** Submit once the section shows it; until then expand the collapsed header. */
export const clickCollapsibleOracle: OraclePolicy = (view) => {
  const nodes = parseAxtree(view.axtree_txt);
  const submit = maybeFind(nodes, 'button', (name) => name === 'Submit');
  if (submit) return act.click(submit);
  const header = findOne(nodes, 'button', (name) => name.startsWith('Section'));
  if (hasState(header, 'expanded')) throw new OracleError('the section is expanded but shows no Submit button');
  return act.click(header);
};
