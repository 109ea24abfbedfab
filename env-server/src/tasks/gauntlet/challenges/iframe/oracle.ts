import { act } from '../../../oracle-helpers/act.js';
import { find, must, quotedValues } from '../../../oracle-helpers/ax-query.js';
import { walk } from '../../oracle/nested-path.js';
import { action, type ChallengeOracle } from '../../oracle/move.js';

/** Waits while the frames load or the button is still disabled (a decoy frame's feedback may have replaced the "loaded" line), then presses. */
export const solveIframe: ChallengeOracle = (view) => {
  const path = quotedValues(/nested as (.*)\. Press/.exec(view.instructions)?.[1] ?? '');
  const inner = walk(view.puzzle, must(path.length ? path : undefined, 'frame path'), (name) => [
    'Iframe',
    `Frame ${name}`,
  ]);
  const press = must(/Press "([^"]+)" inside/.exec(view.instructions)?.[1], 'button to press');
  const button = inner && find(inner, 'button', press);
  // A frame's buttons stay disabled until the page has wired them (under load, after "loaded").
  if (/Frames loading/.test(view.status) || !button || button.props.get('disabled') === 'True')
    return action(act.noop(30));
  return action(act.click(button));
};
