import type { AxNode } from '../../../policy/axtree-lines.js';
import { act } from '../../../policy/act.js';
import { below, find, must, quotedValues } from '../../../policy/ax-query.js';
import { action, type ChallengeOracle } from '../move.js';

/**
 * Shadow DOM panels and nested frames both read as a path of named containers; the AXTree
 * flattens shadow roots and frames, so the oracle walks the names down and presses the button
 * found inside the innermost container.
 */
function walk(nodes: AxNode[], path: string[], role: (name: string) => [string, string]): AxNode[] | undefined {
  let scope = nodes;
  for (const name of path) {
    const [r, n] = role(name);
    const index = scope.findIndex((node) => node.role === r && node.name === n);
    if (index < 0) return undefined;
    scope = below(scope, index);
  }
  return scope;
}

export const solveShadowDom: ChallengeOracle = (view) => {
  const [route, rest] = view.instructions.split(' and press ');
  const path = quotedValues(route!);
  const press = must(quotedValues(rest ?? '')[0], 'button to press');
  const inner = must(
    walk(view.puzzle, path, (name) => ['region', name]),
    `panel path ${path.join(' › ')}`,
  );
  return action(act.click(must(find(inner, 'button', press), `button "${press}" in the innermost panel`)));
};

/** Waits while the frames load or the button is still disabled (a decoy frame's feedback may have replaced the "loaded" line), then presses. */
export const solveIframe: ChallengeOracle = (view) => {
  const path = quotedValues(/nested as (.*)\. Press/.exec(view.instructions)?.[1] ?? '');
  const inner = walk(view.puzzle, must(path.length ? path : undefined, 'frame path'), (name) => [
    'Iframe',
    `Frame ${name}`,
  ]);
  const press = must(/Press "([^"]+)" inside/.exec(view.instructions)?.[1], 'button to press');
  const button = inner && find(inner, 'button', press);
  // A frame's buttons stay disabled until the page has wired them (under load, after "loaded").
  if (/Frames loading/.test(view.status) || !button || button.props.get('disabled') === 'True')
    return action(act.noop(30));
  return action(act.click(button));
};
