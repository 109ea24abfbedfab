import type { AxNode } from '../../oracle-helpers/axtree-lines.js';
import { below } from '../../oracle-helpers/ax-query.js';

/**
 * Shadow DOM panels and nested frames both read as a path of named containers; the AXTree
 * flattens shadow roots and frames, so the oracle walks the names down and presses the button
 * found inside the innermost container.
 */
export function walk(nodes: AxNode[], path: string[], role: (name: string) => [string, string]): AxNode[] | undefined {
  let scope = nodes;
  for (const name of path) {
    const [r, n] = role(name);
    const index = scope.findIndex((node) => node.role === r && node.name === n);
    if (index < 0) return undefined;
    scope = below(scope, index);
  }
  return scope;
}
