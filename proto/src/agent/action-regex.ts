import { ACTION_NAMES, BID_ARGUMENTS } from '../wire/action-names.js';
import { escapeRegex } from './goal-quotes.js';

export interface ActionRegexOptions {
  /** Actions allowed (default: every BrowserGym action). */
  names?: readonly string[];
  /** Allow several calls, one per line (the env's multi_action). */
  multiAction?: boolean;
  /**
   * Element ids on the page now: the element arguments of bid actions (click, fill, …) may only
   * name one of them. Bid actions are left out when the list is empty.
   */
  bids?: readonly string[];
  /**
   * What `fill` may type and `select_option` may pick: their value argument is one of these strings
   * (quoted either way), e.g. the goal's quoted values — a small policy then chooses the value
   * instead of spelling it. An empty list leaves the values free (there is nothing to choose from).
   */
  texts?: readonly string[];
}

// Python literals as the env's action parser reads them. Plain syntax only (groups, classes,
// alternation, quantifiers): vLLM's regex backends and our engine's both take it.
const STRING = String.raw`'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"`;
const NUMBER = String.raw`-?[0-9]+(?:\.[0-9]+)?`;
const ATOM = `(?:${STRING}|${NUMBER}|True|False|None)`;
const LIST = String.raw`\[(?:${ATOM}(?:, ?${ATOM})*)?\]`;
const ARGUMENT = `(?:[a-z_]+=)?(?:${ATOM}|${LIST})`;

/**
 * A regex (full-match semantics, as vLLM's structured_outputs.regex) for a reply that is exactly
 * one action call — or several, one per line — with literal arguments: what constrained decoding
 * sends so a policy's reply always parses.
 */
export function actionRegex(options: ActionRegexOptions = {}): string {
  const names = options.names ?? ACTION_NAMES;
  if (names.length === 0) throw new RangeError('actionRegex needs at least one action name');
  for (const name of names)
    if (!/^[a-z_]+$/.test(name)) throw new RangeError(`${JSON.stringify(name)} is not an action name`);
  const texts = typedTexts(options.texts ?? []);
  const call = options.bids ? bidCalls(names, options.bids, texts) : freeCalls(names, texts);
  return options.multiAction ? `${call}(?:\\n${call})*` : call;
}

/** Actions whose second argument is a value to type or pick: what `texts` narrows. */
const VALUE_ACTIONS: readonly string[] = ['fill', 'select_option'];

/** Every action free, but the value of fill and select_option one of `texts` (when there are any). */
function freeCalls(names: readonly string[], texts: string | undefined): string {
  const { branch, rest } = splitValued(names, ARGUMENT, texts);
  if (branch === undefined) return anyCall(names);
  return rest.length ? `(?:${branch}|${anyCall(rest)})` : branch;
}

/**
 * The actions among `names` whose value `texts` (an alternation source) narrows, as one branch
 * `name(element, value, …)`, and the names left; no branch when nothing is narrowed.
 */
function splitValued(
  names: readonly string[],
  element: string,
  texts: string | undefined,
): { branch?: string; rest: readonly string[] } {
  const valued = names.filter((name) => VALUE_ACTIONS.includes(name));
  if (texts === undefined || valued.length === 0) return { rest: names };
  const head = valued.length === 1 ? valued[0]! : `(?:${valued.join('|')})`;
  return {
    branch: String.raw`${head}\(${element}, ?${texts}(?:, ?${ARGUMENT})*\)`,
    rest: names.filter((name) => !valued.includes(name)),
  };
}

/**
 * The typed values as an alternation of Python string literals, each quoted either way; values with
 * a line break, or longer than a field's worth, are left out. Undefined when none is left.
 */
function typedTexts(texts: readonly string[]): string | undefined {
  const usable = [...new Set(texts)].filter((t) => t.length <= MAX_TYPED && !/[\r\n]/.test(t));
  if (usable.length === 0) return undefined;
  const literals = usable.flatMap((t) => [pyLiteral(t, "'"), pyLiteral(t, '"')]);
  return `(?:${[...new Set(literals)].map(escapeRegex).join('|')})`;
}

const MAX_TYPED = 256;

/** `text` as a Python string literal in `quote`s, as the env's action parser reads it. */
const pyLiteral = (text: string, quote: string): string =>
  `${quote}${text.replaceAll('\\', '\\\\').replaceAll(quote, `\\${quote}`)}${quote}`;

const anyCall = (names: readonly string[]): string =>
  String.raw`(?:${names.join('|')})\((?:${ARGUMENT}(?:, ?${ARGUMENT})*)?\)`;

/** Calls whose leading element arguments are one of `bids` (quoted either way); other actions as anyCall. */
function bidCalls(names: readonly string[], bids: readonly string[], texts: string | undefined): string {
  const free = names.filter((name) => !(name in BID_ARGUMENTS));
  const usable = bids.filter((b) => SAFE_BID.test(b));
  const bound = usable.length ? names.filter((name) => name in BID_ARGUMENTS) : [];
  const bid = `(?:${usable.map((b) => `'${b.replaceAll('.', '\\.')}'|"${b.replaceAll('.', '\\.')}"`).join('|')})`;
  // Actions whose value is chosen have a branch of their own; the others share theirs below.
  const { branch, rest } = splitValued(bound, bid, texts);
  // Actions taking the same number of leading bids share one branch: the same language as one
  // branch per action, in a fraction of the automaton (it is compiled on every turn, per page).
  const byCount = new Map<number, string[]>();
  for (const name of rest) {
    const count = BID_ARGUMENTS[name as keyof typeof BID_ARGUMENTS];
    byCount.set(count, [...(byCount.get(count) ?? []), name]);
  }
  const calls = [...byCount].map(([count, group]) => {
    const leading = Array.from({ length: count }, () => bid).join(', ?');
    const head = group.length === 1 ? group[0]! : `(?:${group.join('|')})`;
    return String.raw`${head}\(${leading}(?:, ?${ARGUMENT})*\)`;
  });
  if (branch !== undefined) calls.push(branch);
  if (free.length) calls.push(anyCall(free));
  if (calls.length === 0)
    throw new RangeError(`actionRegex: no bids on the page, and every allowed action (${names.join(', ')}) needs one`);
  return calls.length === 1 ? calls[0]! : `(?:${calls.join('|')})`;
}

/** Bids as BrowserGym writes them; any other is left out rather than escaped (regex backends differ on escapes). */
const SAFE_BID = /^[A-Za-z0-9_.-]{1,64}$/;

/** One call of any BrowserGym action. */
export const ACTION_REGEX = actionRegex();
