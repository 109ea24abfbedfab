import { act } from '../../../oracle-helpers/act.js';
import { find, must, region, textOf } from '../../../oracle-helpers/ax-query.js';
import { action, type ChallengeOracle } from '../../oracle/move.js';

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
