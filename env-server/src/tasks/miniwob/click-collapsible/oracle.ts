import { find, click, parseAxtree, OracleError, type OraclePolicy } from '../oracle.js';
import { maybeFind, hasState } from '../oracle-extras.js';

/** Submit once the section shows it; until then expand the collapsed header. */
export const clickCollapsibleOracle: OraclePolicy = (view) => {
  const nodes = parseAxtree(view.axtree_txt);
  const submit = maybeFind(nodes, 'button', (name) => name === 'Submit');
  if (submit) return click(submit);
  const header = find(nodes, 'button', (name) => name.startsWith('Section'));
  if (hasState(header, 'expanded')) throw new OracleError('the section is expanded but shows no Submit button');
  return click(header);
};
