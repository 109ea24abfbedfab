import { ParseFailure } from './parseErrors.js';
import { acceptOp, expectOp, isConstantName, parseItems, parseLiteral } from './parseLiterals.js';
import { Lexer } from './parseTokens.js';
import type { Literal, ParsedCall } from '../types.js';

/** Parses `name(literal, ..., key=literal)` starting exactly at `start`. */
export function parseCallAt(text: string, start: number): { call: ParsedCall; end: number } {
  const lexer = new Lexer(text, start);
  const name = lexer.next();
  if (name.kind !== 'name') throw new ParseFailure(name.start, 'expected an action call');
  expectOp(lexer, '(', `expected '(' after ${name.text}`);
  const args: Literal[] = [];
  // No prototype, so a keyword such as __proto__ is an ordinary (unknown) argument.
  const kwargs: Record<string, Literal> = Object.create(null) as Record<string, Literal>;
  parseItems(lexer, ')', () => {
    const first = lexer.peek();
    if (first.kind === 'name' && !isConstantName(first.text)) {
      lexer.next();
      if (!acceptOp(lexer, '='))
        throw new ParseFailure(first.start, `expected a literal value, found the name ${first.text}`);
      if (Object.hasOwn(kwargs, first.text))
        throw new ParseFailure(first.start, `keyword argument repeated: ${first.text}`);
      kwargs[first.text] = parseLiteral(lexer);
    } else {
      const value = parseLiteral(lexer);
      if (Object.keys(kwargs).length > 0)
        throw new ParseFailure(first.start, 'positional argument follows keyword argument');
      args.push(value);
    }
  });
  const end = lexer.consumedEnd;
  return { call: { name: name.text, args, kwargs, source: text.slice(name.start, end) }, end };
}
