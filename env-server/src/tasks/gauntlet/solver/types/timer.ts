import { act } from '../act.js';
import { find, must, region, textOf } from '../ax.js';
import { action, type ChallengeSolver } from '../move.js';

/** How far into the window the press should land: the observation and the click take time. */
const AIM_S = 0.15;
/** Past this much before the window closes, restarting is safer than pressing. */
const MARGIN_S = 0.7;

/** Reads the page clock, waits until it is inside the stated window, and presses; restarts a missed window. */
export const solveTimer: ChallengeSolver = (view) => {
  const [, from, until] = must(/between ([\d.]+) s and ([\d.]+) s/.exec(view.instructions) ?? undefined, 'window');
  const now = Number(
    must(/Page clock: ([\d.]+) s/.exec(textOf(region(view.puzzle, 'paragraph', 'Page clock') ?? []))?.[1], 'clock'),
  );
  const button = (name: string) => must(find(view.puzzle, 'button', name), `button "${name}"`);
  if (now > Number(until) - MARGIN_S) return action(act.click(button('Restart clock')));
  if (now < Number(from)) return action(act.noop((Number(from) + AIM_S - now) * 1000));
  return action(act.click(button('Press')));
};
