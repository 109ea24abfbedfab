import { act } from '../act.js';
import { find, must, numberIn, quotedValues } from '../ax.js';
import { action, type ChallengeSolver } from '../move.js';

/** Clicks the moving button; the env clicks where the button is at that instant. */
export const solveAnimatedButton: ChallengeSolver = (view) => {
  const [label] = quotedValues(view.instructions);
  return action(act.click(must(find(view.puzzle, 'button', label), `button "${label}"`)));
};

/** Connect, wait for the welcome, request, wait for the code message (about the stated delay). */
export const solveWebsocket: ChallengeSolver = (view) => {
  const state = /Connection: ([^.(]+)/.exec(view.status)?.[1]?.trim();
  switch (state) {
    case 'Disconnected':
      return action(act.click(must(find(view.puzzle, 'button', 'Connect'), 'button "Connect"')));
    case 'Connected':
      return action(act.click(must(find(view.puzzle, 'button', 'Request code'), 'button "Request code"')));
    case 'Waiting for the server':
      return action(act.noop(must(numberIn(view.instructions, /about (\d+) ms/), 'server delay') / 2 + 20));
    default:
      return action(act.noop(20));
  }
};
