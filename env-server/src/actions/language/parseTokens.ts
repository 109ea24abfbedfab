import { readNumber } from './parseNumbers.js';
import { readString } from './parseStrings.js';

export type Token =
  | { kind: 'name'; text: string; start: number; end: number }
  | { kind: 'number'; value: number; isInt: boolean; start: number; end: number }
  | { kind: 'string'; value: string; start: number; end: number }
  /** Any other single character; the parser decides whether it belongs there. */
  | { kind: 'op'; text: string; start: number; end: number }
  | { kind: 'eof'; start: number; end: number };

const NAME = /[\p{ID_Start}_][\p{ID_Continue}]*/uy;
const STRING_PREFIX = /^(?:[rRuUbBfF]|[bB][rR]|[rR][bB]|[fF][rR]|[rR][fF])$/;

/**
 * A lazy Python tokenizer: it reads one token at a time from a starting offset, so the
 * non-strict scanner can try a call anywhere in free prose without tokenizing the prose (an
 * apostrophe in "I'll" would otherwise open a string that swallows the actions after it).
 */
export class Lexer {
  private lookahead: Token | undefined;
  private lastEnd: number;

  constructor(
    readonly text: string,
    private pos: number,
  ) {
    this.lastEnd = pos;
  }

  /** Where the last token handed out by `next()` ends. */
  get consumedEnd(): number {
    return this.lastEnd;
  }

  peek(): Token {
    this.lookahead ??= this.scan();
    return this.lookahead;
  }

  next(): Token {
    const token = this.peek();
    this.lookahead = undefined;
    this.lastEnd = token.end;
    return token;
  }

  private scan(): Token {
    this.skipTrivia();
    const { text } = this;
    const start = this.pos;
    const ch = text[start];
    if (ch === undefined) return { kind: 'eof', start, end: start };
    let token: Token;
    if (ch === "'" || ch === '"') {
      token = { kind: 'string', start, ...readString(text, start, '') };
    } else if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(text[start + 1] ?? ''))) {
      token = { kind: 'number', start, ...readNumber(text, start) };
    } else {
      NAME.lastIndex = start;
      const name = NAME.exec(text)?.[0];
      const quoteAfter = name !== undefined && /['"]/.test(text[start + name.length] ?? '');
      if (name !== undefined && quoteAfter && STRING_PREFIX.test(name)) {
        token = { kind: 'string', start, ...readString(text, start, name) };
      } else if (name !== undefined) {
        token = { kind: 'name', text: name, start, end: start + name.length };
      } else {
        token = { kind: 'op', text: ch, start, end: start + 1 };
      }
    }
    this.pos = token.end;
    return token;
  }

  /** Inside a call, newlines, comments and backslash continuations separate nothing. */
  private skipTrivia(): void {
    const { text } = this;
    for (;;) {
      const ch = text[this.pos];
      if (ch === undefined) return;
      if (/\s/.test(ch)) this.pos += 1;
      else if (ch === '#') this.pos = lineEnd(text, this.pos);
      else if (ch === '\\' && /^\r?\n/.test(text.slice(this.pos + 1, this.pos + 3))) this.pos += 1;
      else return;
    }
  }
}

export function lineEnd(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  return newline < 0 ? text.length : newline;
}
