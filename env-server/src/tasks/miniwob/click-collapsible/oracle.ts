import { act, find, hasState, OracleError, parseAxtree, mustFind, type OraclePolicy } from '../oracle.js';

/** Submit once the section shows it; until then expand the collapsed header. */
export const clickCollapsibleOracle: OraclePolicy = (view) => {
  const nodes = parseAxtree(view.axtree_txt);
  const submit = find(nodes, 'button', (name) => name === 'Submit');
  if (submit) return act.click(submit);
  const header = mustFind(nodes, 'button', (name) => name.startsWith('Section'));
  if (hasState(header, 'expanded')) throw new OracleError('the section is expanded but shows no Submit button');
  return act.click(header);
};
