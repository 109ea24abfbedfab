import { ParseFailure } from './parseErrors.js';

const DIGITS = '[0-9](?:_?[0-9])*';
const EXPONENT = `[eE][+-]?${DIGITS}`;
const PREFIXED = /0(?:[xX](?:_?[0-9a-fA-F])+|[oO](?:_?[0-7])+|[bB](?:_?[01])+)/y;
const FLOAT_FORMS = [
  `(?:${DIGITS})?\\.${DIGITS}(?:${EXPONENT})?`,
  `${DIGITS}\\.(?:${EXPONENT})?`,
  `${DIGITS}${EXPONENT}`,
];
const FLOAT = new RegExp(FLOAT_FORMS.join('|'), 'y');
const DECIMAL = /0(?:_?0)*|[1-9](?:_?[0-9])*/y;
const TRAILING_NAME_CHAR = /[\p{ID_Continue}]/u;

export interface NumberToken {
  value: number;
  /** Negating an int must not give -0, which pyRepr would print as the float `-0.0`. */
  isInt: boolean;
  end: number;
}

/** Reads a Python numeric literal starting at `start` (a digit, or a dot before a digit). */
export function readNumber(text: string, start: number): NumberToken {
  const prefixed = matchAt(PREFIXED, text, start);
  const float = prefixed === undefined ? matchAt(FLOAT, text, start) : undefined;
  const literal = prefixed ?? float ?? matchAt(DECIMAL, text, start);
  if (literal === undefined) throw new ParseFailure(start, 'invalid number literal');
  const end = start + literal.length;
  const next = text[end] ?? '';
  if (next === 'j' || next === 'J') throw new ParseFailure(start, 'complex numbers are not supported');
  if (prefixed === undefined && float === undefined && literal.startsWith('0') && /[0-9]/.test(next)) {
    const reason = 'leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers';
    throw new ParseFailure(start, reason);
  }
  if (TRAILING_NAME_CHAR.test(next)) throw new ParseFailure(start, 'invalid number literal');
  return { value: Number(literal.replaceAll('_', '')), isInt: float === undefined, end };
}

function matchAt(pattern: RegExp, text: string, start: number): string | undefined {
  pattern.lastIndex = start;
  return pattern.exec(text)?.[0];
}
