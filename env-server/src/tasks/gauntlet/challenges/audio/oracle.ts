import { act } from '../../../oracle-helpers/act.js';
import { find, must } from '../../../oracle-helpers/ax-query.js';
import { action, type ChallengeOracle } from '../../oracle/move.js';

/**
 * How far into the range the wait after Play aims. More than the timer's: the clip's position
 * starts counting only once playback has begun, a little after the click, which can make the
 * pause land up to about 0.1 s before the wait ends; the env's own overhead makes it later
 * (measured up to about 1 s on a loaded 2-core machine).
 */
export const AUDIO_AIM_S = 0.3;

/**
 * Times the pause from a fresh Play, on the clip's own clock: one multi-action presses "Play
 * clip" (which starts at 0), waits until just inside the stated range, and presses "Pause". No
 * observation comes in between, so a stale position reading cannot make the pause miss; one that
 * still misses locks the puzzle, and the oracle unlocks it and tries again.
 */
export const solveAudio: ChallengeOracle = (view) => {
  const [, from] = must(/between ([\d.]+) s and ([\d.]+) s/.exec(view.instructions) ?? undefined, 'range');
  const button = (name: string) => must(find(view.puzzle, 'button', name), `button "${name}"`);
  return action(
    act.chain(
      act.click(button('Play clip')),
      act.noop((Number(from) + AUDIO_AIM_S) * 1000),
      act.click(button('Pause')),
    ),
  );
};
