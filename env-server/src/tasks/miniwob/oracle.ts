import type { OracleView } from '../task.js';
import { OracleError, pyString } from '../policy/action-text.js';
import { parseAxtree, type AxNode } from '../policy/axtree-lines.js';

export { OracleError, pyString };

/**
 * Oracle policies: observation in, next BrowserGym action out. They read only the goal and the
 * AXTree text, like an agent, so a solved episode also proves the observation carries enough.
 */
export type OraclePolicy = (view: OracleView) => string;

export const clickTestOracle: OraclePolicy = (view) =>
  click(find(parseAxtree(view.axtree_txt), 'button', (name) => name === 'Click Me!'));

export const clickButtonOracle: OraclePolicy = (view) => {
  const label = quotedInGoal(view.goal, 0);
  return click(find(parseAxtree(view.axtree_txt), 'button', (name) => name === label));
};

export const clickLinkOracle: OraclePolicy = (view) => {
  const text = quotedInGoal(view.goal, 0);
  return click(find(parseAxtree(view.axtree_txt), 'link', (name) => name === text));
};

export const enterTextOracle: OraclePolicy = (view) => {
  const text = quotedInGoal(view.goal, 0);
  const nodes = parseAxtree(view.axtree_txt);
  const field = find(nodes, 'textbox', () => true);
  if (field.value !== text) return fill(field, text);
  return click(find(nodes, 'button', (name) => name === 'Submit'));
};

export const loginUserOracle: OraclePolicy = (view) => {
  const username = quotedInGoal(view.goal, 0);
  const password = quotedInGoal(view.goal, 1);
  const nodes = parseAxtree(view.axtree_txt);
  const user = find(nodes, 'textbox', (name) => name === 'Username');
  if (user.value !== username) return fill(user, username);
  const pass = find(nodes, 'textbox', (name) => name === 'Password');
  if (!showsSecret(pass.value, password)) return fill(pass, password);
  return click(find(nodes, 'button', (name) => name.toLowerCase() === 'login'));
};

type Actionable = AxNode & { bid: string };

function find(nodes: AxNode[], role: string, nameMatches: (name: string) => boolean): Actionable {
  const node = nodes.find((n): n is Actionable => n.bid !== undefined && n.role === role && nameMatches(n.name));
  if (!node) throw new OracleError(`no ${role} with a bid and the wanted name in the AXTree`);
  return node;
}

/** The `index`-th double-quoted string in the goal (our goals quote every value to type or click). */
function quotedInGoal(goal: string, index: number): string {
  const found = [...goal.matchAll(/"([^"]*)"/g)][index]?.[1];
  if (found === undefined)
    throw new OracleError(`expected ${index + 1} quoted value(s) in goal ${JSON.stringify(goal)}`);
  return found;
}

/** Chrome masks password values (one `•` per character), so a filled field shows only its length. */
function showsSecret(shown: string | undefined, secret: string): boolean {
  return shown === secret || (shown !== undefined && shown.length === secret.length && /^[•*●]+$/.test(shown));
}

function click(node: Actionable): string {
  return `click(${pyString(node.bid)})`;
}

function fill(node: Actionable, value: string): string {
  return `fill(${pyString(node.bid)}, ${pyString(value)})`;
}
