import { pyRepr } from '../../python/repr.js';
import type { ParamSpec } from '../catalog/catalog.js';
import { KEY_CHORD, chordKeys } from '../catalog/ranges.js';
import { ActionError, type Literal } from '../types.js';

/**
 * Checks one bound argument against its parameter. Wrong values are ValueErrors (TypeError is
 * kept for signature mistakes, as Python reports them), and each message names the action,
 * the parameter and the value so the agent can fix its next call.
 */
export function checkValue(action: string, param: ParamSpec, value: Literal): void {
  const problem = describeProblem(param, value);
  if (problem === undefined) return;
  // BrowserGym's exact wording for element ids, which agents have learned from.
  if (param.bid) throw new ActionError('ValueError', `expected a string, got ${pyRepr(value)}`);
  throw new ActionError('ValueError', `${action}() argument '${param.name}' must be ${problem}, got ${shown(value)}`);
}

/** Longest value an error message repeats in full; longer ones are cut (the agent wrote them, it has them). */
const SHOWN_CHARS = 80;

/**
 * pyRepr prints integral numbers as ints, which for 1e300 is 301 digits. Written that large, a
 * number was a float literal, so it is shown the way Python prints that float (`1e+300`).
 */
function shown(value: Literal): string {
  if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) >= 1e16) return value.toExponential();
  const text = pyRepr(value);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}… (${text.length} characters)` : text;
}

function describeProblem(param: ParamSpec, value: Literal): string | undefined {
  switch (param.kind) {
    case 'string':
      if (param.keys) return typeof value === 'string' && isShortChord(value) ? undefined : KEYS_WANTED;
      if (!param.allowed) return typeof value === 'string' ? undefined : 'a string';
      return typeof value === 'string' && param.allowed.includes(value)
        ? undefined
        : `one of ${quoteAll(param.allowed)}`;
    case 'number': {
      const range = param.range;
      if (!range) return typeof value === 'number' && Number.isFinite(value) ? undefined : 'a finite number';
      // NaN and infinities fail the comparison too.
      const inside = typeof value === 'number' && value >= range[0] && value <= range[1];
      return inside ? undefined : `a number from ${pyRepr(range[0])} to ${pyRepr(range[1])}`;
    }
    case 'int':
      return Number.isInteger(value) ? undefined : 'an integer';
    case 'bool':
      return typeof value === 'boolean' ? undefined : 'True or False';
    case 'list':
      if (!Array.isArray(value)) return param.allowed ? `a list with items from ${quoteAll(param.allowed)}` : 'a list';
      return param.allowed && !value.every((item) => typeof item === 'string' && param.allowed?.includes(item))
        ? `a list with items from ${quoteAll(param.allowed)}`
        : undefined;
    case 'string_or_list':
      if (typeof value === 'string') return undefined;
      if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return undefined;
      return 'a string or a list of strings';
    case 'any':
      return undefined;
  }
}

const KEYS_WANTED = `a key or key combination of at most ${KEY_CHORD.maxKeys} keys and ${KEY_CHORD.maxChars} characters`;

function isShortChord(value: string): boolean {
  return value.length <= KEY_CHORD.maxChars && chordKeys(value).length <= KEY_CHORD.maxKeys;
}

function quoteAll(values: readonly string[]): string {
  return values.map((value) => pyRepr(value)).join(', ');
}
