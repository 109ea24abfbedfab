import { CODE_PATTERN } from '../../codes.js';
import { act } from '../../../oracle-helpers/act.js';
import { find, must, quotedValues, region, textOf } from '../../../oracle-helpers/ax-query.js';
import { action, code, type ChallengeOracle } from '../../oracle/move.js';

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
