import { act } from '../../../oracle-helpers/act.js';
import { find, must, numberIn, region, textOf } from '../../../oracle-helpers/ax-query.js';
import { action, type ChallengeOracle } from '../../oracle/move.js';

/**
 * Connect; subscribe to the channels in the order the server's welcome gave, one per action;
 * request; wait for the code message (about the stated delay).
 */
export const solveWebsocket: ChallengeOracle = (view) => {
  const line = textOf(region(view.puzzle, 'paragraph', 'Connection') ?? []);
  const state = /Connection: ([^.]+)\./.exec(line)?.[1];
  const click = (name: string) => action(act.click(must(find(view.puzzle, 'button', name), `button "${name}"`)));
  switch (state) {
    case 'Disconnected':
      return click('Connect');
    case 'Connected': {
      const log = textOf(region(view.puzzle, 'list', 'Messages') ?? []);
      const welcomes = [...log.matchAll(/Subscribe in this order: ([^.]+)\./g)];
      const order = must(welcomes.at(-1)?.[1], 'the welcome message').split(', ');
      const done = /Subscribed: ([^.]+)\./.exec(line)?.[1];
      const count = done && done !== 'none' ? done.split(', ').length : 0;
      return count < order.length ? click(`Subscribe ${order[count]}`) : click('Request code');
    }
    case 'Waiting for the server':
      return action(act.noop(must(numberIn(view.instructions, /about (\d+) ms/), 'server delay') / 2 + 20));
    default:
      return action(act.noop(20));
  }
};
