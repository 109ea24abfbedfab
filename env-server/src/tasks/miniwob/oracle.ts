import type { OracleView } from '../task.js';
import { act, type Actionable } from '../oracle-helpers/act.js';
import { OracleError, pyString } from '../oracle-helpers/action-text.js';
import { find, findAll, hasState, must, quotedValues } from '../oracle-helpers/ax-query.js';
import { parseAxtree, type AxNode } from '../oracle-helpers/axtree-lines.js';

export { act, find, findAll, hasState, must, OracleError, parseAxtree, pyString, quotedValues };
export type { Actionable, AxNode };

/**
 * What every MiniWoB-style task's oracle builds on. Oracles are policies: observation in, next
 * BrowserGym action out. They read only the goal and the AXTree text, like an agent, so a solved
 * episode also proves the observation carries enough. Everything here throws OracleError when
 * the observation lacks what was asked for, so a page or observer bug fails loudly.
 */
export type OraclePolicy = (view: OracleView) => string;

/** The first node with a bid, `role` and a name `nameMatches` accepts; OracleError when none. */
export function mustFind(nodes: readonly AxNode[], role: string, nameMatches: (name: string) => boolean): Actionable {
  return must(find(nodes, role, nameMatches), `${role} with a bid and the wanted name in the AXTree`);
}

/** The `index`-th double-quoted string in the goal (our goals quote every value to type or click). */
export function quotedInGoal(goal: string, index: number): string {
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
