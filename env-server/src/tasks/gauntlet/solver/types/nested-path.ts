import type { AxNode } from '../../../policy/axtree-lines.js';
import { act } from '../act.js';
import { below, find, must, quotedValues } from '../ax.js';
import { action, type ChallengeSolver } from '../move.js';

/**
 * Shadow DOM panels and nested frames both read as a path of named containers; the AXTree
 * flattens shadow roots and frames, so the solver walks the names down and presses the button
 * found inside the innermost container.
 */
function walk(nodes: AxNode[], path: string[], role: (name: string) => [string, string]): AxNode[] {
  let scope = nodes;
  for (const name of path) {
    const [r, n] = role(name);
    const index = scope.findIndex((node) => node.role === r && node.name === n);
    if (index < 0) must(undefined, `${r} "${n}" on the path`);
    scope = below(scope, index);
  }
  return scope;
}

export const solveShadowDom: ChallengeSolver = (view) => {
  const path = quotedValues(view.instructions.split(' and press ')[0]!);
  const inner = walk(view.puzzle, path, (name) => ['region', name]);
  return action(act.click(must(find(inner, 'button', 'Reveal code'), 'button "Reveal code" in the innermost panel')));
};

export const solveIframe: ChallengeSolver = (view) => {
  if (!/All frames loaded/.test(view.status)) return action(act.noop(30));
  const path = quotedValues(/nested as (.*)\. Press/.exec(view.instructions)?.[1] ?? '');
  const inner = walk(view.puzzle, must(path.length ? path : undefined, 'frame path'), (name) => [
    'Iframe',
    `Frame ${name}`,
  ]);
  return action(act.click(must(find(inner, 'button', 'Reveal code'), 'button "Reveal code" in the innermost frame')));
};
