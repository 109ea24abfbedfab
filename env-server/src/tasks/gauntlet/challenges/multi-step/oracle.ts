import { act } from '../../../oracle-helpers/act.js';
import { find, must, quotedValues, region } from '../../../oracle-helpers/ax-query.js';
import { action, type ChallengeOracle } from '../../oracle/move.js';

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
