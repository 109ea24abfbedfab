import { act } from '../../../oracle-helpers/act.js';
import { must, region, textOf } from '../../../oracle-helpers/ax-query.js';
import { action, type ChallengeOracle } from '../../oracle/move.js';

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
