import { OracleError, pyString } from './action-text.js';
import type { AxNode } from './axtree-lines.js';

/**
 * Finding things in parsed AXTree nodes and writing the BrowserGym action that acts on them:
 * the vocabulary multi-step oracles share. Everything throws OracleError when the observation
 * lacks what was asked for, so a page or observer bug fails loudly instead of looping.
 */

/** A node the agent can act on: printed with a bid. */
export type Actionable = AxNode & { bid: string };

type NameTest = (name: string) => boolean;
const anyName: NameTest = () => true;

export function allWithBid(nodes: readonly AxNode[], role: string, nameMatches: NameTest = anyName): Actionable[] {
  return nodes.filter((n): n is Actionable => n.bid !== undefined && n.role === role && nameMatches(n.name));
}

export function maybeFind(nodes: readonly AxNode[], role: string, nameMatches: NameTest = anyName) {
  return allWithBid(nodes, role, nameMatches)[0];
}

export function findOne(nodes: readonly AxNode[], role: string, nameMatches: NameTest = anyName): Actionable {
  const node = maybeFind(nodes, role, nameMatches);
  if (!node) throw new OracleError(`no ${role} with a bid and the wanted name in the AXTree`);
  return node;
}

/** A node's boolean ARIA state as the AXTree prints it (`checked='true'`, `expanded=True`, `selected`). */
export function hasState(node: AxNode, state: string): boolean {
  const value = node.props.get(state);
  return value === true || (typeof value === 'string' && value.toLowerCase() === 'true');
}

/** Every double-quoted value in the goal, in order (our goals quote each value to type or click). */
export function quotedValues(goal: string): string[] {
  return [...goal.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
}

export function quoted(goal: string, index: number): string {
  const found = quotedValues(goal)[index];
  if (found === undefined)
    throw new OracleError(`expected ${index + 1} quoted value(s) in goal ${JSON.stringify(goal)}`);
  return found;
}

/** The first capture of `pattern` in the goal, or an OracleError naming the goal. */
export function fromGoal(goal: string, pattern: RegExp): string {
  const found = pattern.exec(goal)?.[1];
  if (found === undefined) throw new OracleError(`goal ${JSON.stringify(goal)} does not match ${pattern}`);
  return found;
}

/** Chrome masks password values (one `•` per character), so a filled field shows only its length. */
export function showsSecret(shown: string | undefined, secret: string): boolean {
  return shown === secret || (shown !== undefined && shown.length === secret.length && /^[•*●]+$/.test(shown));
}

/* BrowserGym action text for one node. */
export const act = {
  click: (node: Actionable) => `click(${pyString(node.bid)})`,
  focus: (node: Actionable) => `focus(${pyString(node.bid)})`,
  clear: (node: Actionable) => `clear(${pyString(node.bid)})`,
  fill: (node: Actionable, value: string, openAutocomplete = false) =>
    `fill(${pyString(node.bid)}, ${pyString(value)}${openAutocomplete ? ', True' : ''})`,
  select: (node: Actionable, option: string) => `select_option(${pyString(node.bid)}, ${pyString(option)})`,
  press: (node: Actionable, key: string) => `press(${pyString(node.bid)}, ${pyString(key)})`,
};
