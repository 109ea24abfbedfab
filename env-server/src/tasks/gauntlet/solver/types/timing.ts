import { act } from '../act.js';
import { find, must, numberIn, quotedValues, region, textOf } from '../ax.js';
import { action, type ChallengeSolver } from '../move.js';

/** Reads the button's position and speed, waits until it is inside the zone, then clicks it. */
export const solveAnimatedButton: ChallengeSolver = (view) => {
  const [label] = quotedValues(view.instructions);
  const [, from, to] = must(/between x = (\d+) and x = (\d+) px/.exec(view.instructions) ?? undefined, 'zone');
  const speed = must(numberIn(view.instructions, /slides right at (\d+) px\/s/), 'speed');
  const track = must(numberIn(view.instructions, /wraps from (\d+) back/), 'track length');
  const at = must(
    numberIn(textOf(region(view.puzzle, 'paragraph', 'Button position') ?? []), /x = (\d+) px/),
    'position',
  );
  // Aim a little past the zone's start: the observation and the click itself take time.
  const aim = Number(from) + speed * 0.15;
  if (at >= Number(from) && at <= Number(to) - speed * 0.5)
    return action(act.click(must(find(view.puzzle, 'button', label), `button "${label}"`)));
  const ahead = (((aim - at) % track) + track) % track;
  return action(act.noop((ahead / speed) * 1000));
};

/**
 * Connect; subscribe to the channels in the order the server's welcome gave, one per action;
 * request; wait for the code message (about the stated delay).
 */
export const solveWebsocket: ChallengeSolver = (view) => {
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
