import { ParseFailure } from './parseErrors.js';
import type { Lexer, Token } from './parseTokens.js';
import type { Literal } from '../types.js';

const CONSTANTS: ReadonlyMap<string, Literal> = new Map<string, Literal>([
  ['True', true],
  ['False', false],
  ['None', null],
]);
// Degenerate completions ("[[[[…" repeated) must fail as a SyntaxError, not overflow the stack.
// CPython's own parser stops at 200 nested brackets.
const MAX_DEPTH = 100;

export function isConstantName(name: string): boolean {
  return CONSTANTS.has(name);
}

/**
 * Parses one literal: what Python's `ast.literal_eval` accepts, minus sets, bytes and complex
 * numbers. Tuples become arrays; dict keys must be strings.
 */
export function parseLiteral(lexer: Lexer, depth = 0): Literal {
  const token = lexer.next();
  switch (token.kind) {
    case 'string':
      return concatenateStrings(lexer, token.value);
    case 'number':
      return token.value;
    case 'name': {
      const constant = CONSTANTS.get(token.text);
      if (constant === undefined)
        throw new ParseFailure(token.start, `expected a literal value, found the name ${token.text}`);
      return constant;
    }
    case 'op':
      if (depth >= MAX_DEPTH) throw new ParseFailure(token.start, 'too many nested brackets');
      return parseBracketed(lexer, token, depth + 1);
    case 'eof':
      throw new ParseFailure(token.start, 'expected a literal value');
  }
}

/** Python joins adjacent string literals at compile time: `'a' 'b'` is `'ab'`. */
function concatenateStrings(lexer: Lexer, first: string): string {
  let value = first;
  for (;;) {
    const next = lexer.peek();
    if (next.kind !== 'string') return value;
    lexer.next();
    value += next.value;
  }
}

function parseBracketed(lexer: Lexer, token: Token & { kind: 'op' }, depth: number): Literal {
  switch (token.text) {
    case '-':
    case '+':
      return parseSigned(lexer, token.text);
    case '[':
      return parseItems(lexer, ']', () => parseLiteral(lexer, depth));
    case '(':
      return parseParenthesized(lexer, depth);
    case '{':
      return parseDict(lexer, depth);
    default:
      throw new ParseFailure(token.start, 'expected a literal value');
  }
}

function parseSigned(lexer: Lexer, sign: '-' | '+'): number {
  const operand = lexer.next();
  if (operand.kind !== 'number') throw new ParseFailure(operand.start, `expected a number after '${sign}'`);
  if (sign === '+') return operand.value;
  return operand.isInt ? 0 - operand.value : -operand.value;
}

/** `()` is an empty tuple, `(x)` is just x, `(x,)` and `(x, y)` are tuples. */
function parseParenthesized(lexer: Lexer, depth: number): Literal {
  if (acceptOp(lexer, ')')) return [];
  const first = parseLiteral(lexer, depth);
  if (acceptOp(lexer, ')')) return first;
  expectOp(lexer, ',', "expected ',' or ')'");
  return [first, ...parseItems(lexer, ')', () => parseLiteral(lexer, depth))];
}

function parseDict(lexer: Lexer, depth: number): Literal {
  // No prototype, so a key such as "__proto__" is stored like any other.
  const dict: Record<string, Literal> = Object.create(null) as Record<string, Literal>;
  parseItems(lexer, '}', () => {
    const keyStart = lexer.peek().start;
    const key = parseLiteral(lexer, depth);
    if (typeof key !== 'string') throw new ParseFailure(keyStart, 'dict keys must be strings');
    expectOp(lexer, ':', "expected ':' after a dict key");
    dict[key] = parseLiteral(lexer, depth);
  });
  return dict;
}

/** Comma-separated items up to `close`, trailing comma allowed; consumes `close`. */
export function parseItems<T>(lexer: Lexer, close: string, item: () => T): T[] {
  const items: T[] = [];
  while (!acceptOp(lexer, close)) {
    items.push(item());
    if (acceptOp(lexer, close)) break;
    expectOp(lexer, ',', `expected ',' or '${close}'`);
  }
  return items;
}

export function acceptOp(lexer: Lexer, text: string): boolean {
  const token = lexer.peek();
  if (token.kind !== 'op' || token.text !== text) return false;
  lexer.next();
  return true;
}

export function expectOp(lexer: Lexer, text: string, reason: string): Token {
  const token = lexer.peek();
  if (token.kind !== 'op' || token.text !== text) throw new ParseFailure(token.start, reason);
  return lexer.next();
}
