import { CODE_PATTERN } from '../../challenge-types.js';
import { act } from '../../../policy/act.js';
import { below, find, findAll, must, quotedValues, region, textOf } from '../../../policy/ax-query.js';
import { action, code, type ChallengeOracle } from '../move.js';

/** Tab, then its settings dialog, then the option and Confirm — whichever stage the page is at. */
export const solveMultiStep: ChallengeOracle = (view) => {
  const [tab, , choice, setting] = quotedValues(view.instructions);
  const dialog = region(view.puzzle, 'dialog', `${tab} settings`);
  if (dialog) {
    const select = must(find(dialog, 'combobox', setting), `select "${setting}"`);
    if (select.value !== choice) return action(act.select(select, choice!));
    return action(act.click(must(find(dialog, 'button', 'Confirm'), 'button "Confirm"')));
  }
  const tabNode = must(find(view.puzzle, 'tab', tab), `tab "${tab}"`);
  if (tabNode.props.get('selected') !== 'True') return action(act.click(tabNode));
  const panel = must(region(view.puzzle, 'tabpanel', tab!), `tab panel "${tab}"`);
  return action(act.click(must(find(panel, 'button', 'Open settings'), 'button "Open settings"')));
};

/** Settings, Stored data, then Show on the named entry; its value is the code. */
export const solveCookieStorage: ChallengeOracle = (view) => {
  const [key] = quotedValues(view.instructions);
  const entry = region(view.puzzle, 'listitem', key!);
  if (entry) {
    const value = textOf(entry)
      .split(/[:\s]+/)
      .find((t) => CODE_PATTERN.test(t));
    if (value) return code(value);
    return action(act.click(must(find(entry, 'button', `Show ${key}`), `button "Show ${key}"`)));
  }
  const stored = find(view.puzzle, 'button', 'Stored data');
  return action(act.click(stored ?? must(find(view.puzzle, 'button', 'Settings'), 'button "Settings"')));
};

/** Closes popups above the named one (topmost first) with the stated closing button, then the named one. */
export const solveModalDecoy: ChallengeOracle = (view) => {
  const [target, closes] = quotedValues(view.instructions).filter((q) => q !== '×');
  const dialogs = view.puzzle.map((n, i) => [n, i] as const).filter(([n]) => n.role === 'dialog');
  const at = dialogs.findIndex(([n]) => n.name === target);
  const [popup, index] = must(dialogs[at], `popup "${target}"`);
  const above = dialogs.slice(at + 1);
  const [closeNode, closeIndex] = above.length ? above[above.length - 1]! : [popup, index];
  const inside = below(view.puzzle, closeIndex);
  return action(act.click(must(findAll(inside, 'button', closes)[0], `button "${closes}" of "${closeNode.name}"`)));
};
