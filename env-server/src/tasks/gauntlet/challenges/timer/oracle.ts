import { act } from '../../../oracle-helpers/act.js';
import { find, must } from '../../../oracle-helpers/ax-query.js';
import { action, type ChallengeOracle } from '../../oracle/move.js';

/**
 * How far into the window the wait aims. The press cannot land early: the clock restarts while
 * the first click is dispatched, and the second click starts only after the wait. Everything
 * the env spends between them (settling, locating, dispatching) only makes the press later, so
 * the aim sits near the window's start and leaves the rest of it for that overhead.
 */
export const TIMER_AIM_S = 0.1;

/**
 * Times the press on the page's own clock: one multi-action restarts the clock, waits until
 * just inside the stated window, and presses. No observation comes between the restart and the
 * press, so a slow observation or policy cannot make the press stale; a press that still lands
 * late locks the puzzle, and the oracle unlocks it and tries again.
 */
export const solveTimer: ChallengeOracle = (view) => {
  const [, from] = must(/between ([\d.]+) s and ([\d.]+) s/.exec(view.instructions) ?? undefined, 'window');
  const button = (name: string) => must(find(view.puzzle, 'button', name), `button "${name}"`);
  return action(
    act.chain(
      act.click(button('Restart clock')),
      act.noop((Number(from) + TIMER_AIM_S) * 1000),
      act.click(button('Press')),
    ),
  );
};
