import type { OracleView } from '../task.js';
import { OracleError, pyString } from '../policy/action-text.js';
import { parseAxtree, type AxNode } from '../policy/axtree-lines.js';

export { OracleError, parseAxtree, pyString, type AxNode };

/**
 * What every MiniWoB-style task's oracle builds on. Oracles are policies: observation in, next
 * BrowserGym action out. They read only the goal and the AXTree text, like an agent, so a solved
 * episode also proves the observation carries enough.
 */
export type OraclePolicy = (view: OracleView) => string;

/** An AXTree node the agent can act on. */
export type Actionable = AxNode & { bid: string };

/** The first node with a bid, `role` and a name `nameMatches` accepts; OracleError when none. */
export function find(nodes: AxNode[], role: string, nameMatches: (name: string) => boolean): Actionable {
  const node = nodes.find((n): n is Actionable => n.bid !== undefined && n.role === role && nameMatches(n.name));
  if (!node) throw new OracleError(`no ${role} with a bid and the wanted name in the AXTree`);
  return node;
}

/** The `index`-th double-quoted string in the goal (our goals quote every value to type or click). */
export function quotedInGoal(goal: string, index: number): string {
  const found = [...goal.matchAll(/"([^"]*)"/g)][index]?.[1];
  if (found === undefined)
    throw new OracleError(`expected ${index + 1} quoted value(s) in goal ${JSON.stringify(goal)}`);
  return found;
}

/** Chrome masks password values (one `•` per character), so a filled field shows only its length. */
export function showsSecret(shown: string | undefined, secret: string): boolean {
  return shown === secret || (shown !== undefined && shown.length === secret.length && /^[•*●]+$/.test(shown));
}

export function click(node: Actionable): string {
  return `click(${pyString(node.bid)})`;
}

export function fill(node: Actionable, value: string): string {
  return `fill(${pyString(node.bid)}, ${pyString(value)})`;
}
