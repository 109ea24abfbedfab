import { act } from '../../../policy/act.js';
import { find, must, region, textOf } from '../../../policy/ax-query.js';
import { action, type ChallengeOracle } from '../move.js';

/**
 * One stroke through the stated points: the page gives the points in canvas pixels and the
 * canvas's place in the viewport, so the whole press-move-release goes in one multi-action.
 */
export const solveCanvas: ChallengeOracle = (view) => {
  const points = [...view.instructions.matchAll(/\((\d+), (\d+)\)/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
  const where = textOf(must(region(view.puzzle, 'paragraph', 'Canvas position'), 'canvas position'));
  const [, left, top] = must(/x=(-?\d+), y=(-?\d+)/.exec(where) ?? undefined, 'canvas corner');
  const at = points.map(([x, y]) => [x + Number(left), y + Number(top)] as const);
  const [first, ...rest] = at;
  const last = at[at.length - 1]!;
  return action(
    act.chain(
      act.mouseMove(...first!),
      act.mouseDown(...first!),
      ...rest.map((p) => act.mouseMove(...p)),
      act.mouseUp(...last),
    ),
  );
};

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

/** Seek mode: type the time and press Seek. Play mode: press Play and wait past the moment. */
export const solveVideo: ChallengeOracle = (view) => {
  const time = textOf(region(view.puzzle, 'paragraph', 'Video time') ?? []);
  const now = /Video time: ([\d.]+) s/.exec(time);
  if (!now) return action(act.noop(50));
  const seconds = Number(must(/(\d+\.\d) s/.exec(view.instructions)?.[1], 'target time'));
  if (/Seek the video/.test(view.instructions)) {
    const box = must(find(view.puzzle, 'spinbutton', 'Seek to (seconds)'), 'seek box');
    const typed = box.props.get('valuetext') ?? box.value;
    if (typed !== seconds.toFixed(1)) return action(act.fill(box, seconds.toFixed(1)));
    return action(act.click(must(find(view.puzzle, 'button', 'Seek'), 'button "Seek"')));
  }
  if (/\(paused\)/.test(time)) return action(act.click(must(find(view.puzzle, 'button', 'Play'), 'button "Play"')));
  return action(act.noop(Math.max(50, (seconds - Number(now[1])) * 1000 + 60)));
};
