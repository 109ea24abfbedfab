import { OracleError, pyString, type AxNode } from './oracle.js';
import type { Actionable } from './oracle.js';

/**
 * What multi-step oracles need beyond oracle.ts: every node of a kind, ARIA states, more of the
 * goal, and the rest of the action vocabulary (select, press, focus, clear, fill that opens an
 * autocomplete menu). All of it reads what an agent reads and throws OracleError when the
 * observation lacks what was asked for, so a page or observer bug fails loudly.
 */

type NameTest = (name: string) => boolean;
const anyName: NameTest = () => true;

export function allWithBid(nodes: readonly AxNode[], role: string, nameMatches: NameTest = anyName): Actionable[] {
  return nodes.filter((n): n is Actionable => n.bid !== undefined && n.role === role && nameMatches(n.name));
}

export function maybeFind(nodes: readonly AxNode[], role: string, nameMatches: NameTest = anyName) {
  return allWithBid(nodes, role, nameMatches)[0];
}

/** A node's boolean ARIA state as the AXTree prints it (`checked='true'`, `expanded=True`, `focused`). */
export function hasState(node: AxNode, state: string): boolean {
  const value = node.props.get(state);
  return value === true || (typeof value === 'string' && value.toLowerCase() === 'true');
}

/** Every double-quoted value in the goal, in order. */
export function quotedValues(goal: string): string[] {
  return [...goal.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
}

/** The first capture of `pattern` in the goal, or an OracleError naming the goal. */
export function fromGoal(goal: string, pattern: RegExp): string {
  const found = pattern.exec(goal)?.[1];
  if (found === undefined) throw new OracleError(`goal ${JSON.stringify(goal)} does not match ${pattern}`);
  return found;
}

export function selectOption(node: Actionable, option: string): string {
  return `select_option(${pyString(node.bid)}, ${pyString(option)})`;
}

export function press(node: Actionable, key: string): string {
  return `press(${pyString(node.bid)}, ${pyString(key)})`;
}

export function focus(node: Actionable): string {
  return `focus(${pyString(node.bid)})`;
}

export function clear(node: Actionable): string {
  return `clear(${pyString(node.bid)})`;
}

/** fill with its third argument: the last character is typed, so autocomplete menus open. */
export function fillOpeningMenu(node: Actionable, value: string): string {
  return `fill(${pyString(node.bid)}, ${pyString(value)}, True)`;
}
