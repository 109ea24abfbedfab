import { act, findAll, OracleError, parseAxtree, type OraclePolicy } from '../oracle.js';

/** Focus the textbox the goal counts to ("the 2nd input textbox"; the only one otherwise). */
export const focusTextOracle: OraclePolicy = (view) => {
  const ordinal = /the (\d)(?:st|nd|rd|th) input textbox/.exec(view.goal)?.[1];
  const fields = findAll(parseAxtree(view.axtree_txt), 'textbox');
  const field = fields[ordinal === undefined ? 0 : Number(ordinal) - 1];
  if (!field) throw new OracleError(`no textbox number ${ordinal ?? 1} among ${fields.length}`);
  return act.focus(field);
};
