import { act } from '../../../oracle-helpers/act.js';
import { find, must, quotedValues } from '../../../oracle-helpers/ax-query.js';
import { walk } from '../../oracle/nested-path.js';
import { action, type ChallengeOracle } from '../../oracle/move.js';

export const solveShadowDom: ChallengeOracle = (view) => {
  const [route, rest] = view.instructions.split(' and press ');
  const path = quotedValues(route!);
  const press = must(quotedValues(rest ?? '')[0], 'button to press');
  const inner = must(
    walk(view.puzzle, path, (name) => ['region', name]),
    `panel path ${path.join(' › ')}`,
  );
  return action(act.click(must(find(inner, 'button', press), `button "${press}" in the innermost panel`)));
};
