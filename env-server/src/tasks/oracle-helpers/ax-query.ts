import { OracleError } from './action-text.js';
import type { Actionable } from './act.js';
import type { AxNode } from './axtree-lines.js';

// Instructions quote what to click or type: the oracles and agents' text choices read them alike.
export { quotedValues } from '@gauntlet/proto/agent';

/** Queries over parsed AXTree lines (a flat, depth-annotated list in document order). */

/** The nodes under `nodes[index]` (not including it). */
export function below(nodes: readonly AxNode[], index: number): AxNode[] {
  const depth = nodes[index]!.depth;
  let end = index + 1;
  while (end < nodes.length && nodes[end]!.depth > depth) end++;
  return nodes.slice(index + 1, end);
}

/** The subtree under the first node with this role and name, or undefined. */
export function region(nodes: readonly AxNode[], role: string, name: string): AxNode[] | undefined {
  const index = nodes.findIndex((n) => n.role === role && n.name === name);
  return index < 0 ? undefined : below(nodes, index);
}

/** Every StaticText under `nodes`, joined with newlines. */
export function textOf(nodes: readonly AxNode[]): string {
  return nodes
    .filter((n) => n.role === 'StaticText')
    .map((n) => n.name)
    .join('\n');
}

export function findAll(
  nodes: readonly AxNode[],
  role: string,
  name?: string | ((name: string) => boolean),
): Actionable[] {
  const matches = typeof name === 'function' ? name : (n: string) => name === undefined || n === name;
  return nodes.filter((n): n is Actionable => n.bid !== undefined && n.role === role && matches(n.name));
}

export function find(
  nodes: readonly AxNode[],
  role: string,
  name?: string | ((name: string) => boolean),
): Actionable | undefined {
  return findAll(nodes, role, name)[0];
}

export function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new OracleError(`the observation has no ${what}`);
  return value;
}

/** The first integer captured by `pattern` in `text`. */
export function numberIn(text: string, pattern: RegExp): number | undefined {
  const found = pattern.exec(text)?.[1];
  return found === undefined ? undefined : Number(found);
}

/** A node's boolean ARIA state as the AXTree prints it (`checked='true'`, `expanded=True`, `focused`). */
export function hasState(node: AxNode, state: string): boolean {
  const value = node.props.get(state);
  return value === true || (typeof value === 'string' && value.toLowerCase() === 'true');
}
