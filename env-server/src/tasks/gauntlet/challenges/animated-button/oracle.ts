import { act } from '../../../oracle-helpers/act.js';
import { find, must, numberIn, quotedValues } from '../../../oracle-helpers/ax-query.js';
import { action, type ChallengeOracle } from '../../oracle/move.js';

/** How far past the zone's start the wait aims, in seconds of sliding (the timer's reasoning: overhead only makes the click later). */
export const SLIDE_AIM_S = 0.1;

/**
 * Times the click from a restart, on the page's own clock: one multi-action puts the button back
 * at x = 0, waits until it has slid just inside the zone (its start over the stated speed), and
 * clicks it. No observation comes in between, so a stale position reading cannot make the click
 * miss; one that still lands late locks the puzzle, and the oracle unlocks it and tries again.
 */
export const solveAnimatedButton: ChallengeOracle = (view) => {
  const [label] = quotedValues(view.instructions);
  const [, from] = must(/between x = (\d+) and x = (\d+) px/.exec(view.instructions) ?? undefined, 'zone');
  const speed = must(numberIn(view.instructions, /slides right at (\d+) px\/s/), 'speed');
  const button = (name: string) => must(find(view.puzzle, 'button', name), `button "${name}"`);
  return action(
    act.chain(
      act.click(button('Restart slide')),
      act.noop((Number(from) / speed + SLIDE_AIM_S) * 1000),
      act.click(button(must(label, 'button label'))),
    ),
  );
};
