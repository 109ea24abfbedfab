import {
  act,
  findAll,
  hasState,
  OracleError,
  parseAxtree,
  mustFind,
  quotedInGoal,
  type OraclePolicy,
} from '../oracle.js';

/**
 * Uses the menu by keyboard: type the prefix so suggestions open, ArrowDown until the fitting
 * one is active, Enter to take it, then Submit.
 */
export const useAutocompleteOracle: OraclePolicy = (view) => {
  const prefix = quotedInGoal(view.goal, 0);
  const suffix = view.goal.includes('ends with') ? quotedInGoal(view.goal, 1) : '';
  const fits = (text: string) => text.toLowerCase().startsWith(prefix.toLowerCase()) && text.endsWith(suffix);
  const nodes = parseAxtree(view.axtree_txt);
  const field = mustFind(nodes, 'combobox', () => true);
  const options = findAll(nodes, 'option');
  if (options.length > 0) {
    const wanted = options.find((option) => fits(option.name));
    if (!wanted) throw new OracleError(`no suggestion fits "${prefix}…${suffix}"`);
    return act.press(field, hasState(wanted, 'selected') ? 'Enter' : 'ArrowDown');
  }
  // A taken suggestion is longer than the typed prefix; the bare prefix is no country.
  const value = field.value ?? '';
  if (fits(value) && value.length > prefix.length) return act.click(mustFind(nodes, 'button', (n) => n === 'Submit'));
  return act.fill(field, prefix, true);
};
