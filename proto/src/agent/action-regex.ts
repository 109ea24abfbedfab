import { ACTION_NAMES } from './action-names.js';

export interface ActionRegexOptions {
  /** Actions allowed (default: every BrowserGym action). */
  names?: readonly string[];
  /** Allow several calls, one per line (the env's multi_action). */
  multiAction?: boolean;
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
  const call = String.raw`(?:${names.join('|')})\((?:${ARGUMENT}(?:, ?${ARGUMENT})*)?\)`;
  return options.multiAction ? `${call}(?:\\n${call})*` : call;
}

/** One call of any BrowserGym action. */
export const ACTION_REGEX = actionRegex();
