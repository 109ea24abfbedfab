import { ParseFailure } from './parseErrors.js';

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

export interface StringToken {
  value: string;
  end: number;
}

/**
 * Reads a Python string literal at `start`, whose prefix (`r`, `u`, …, possibly empty) has
 * `prefix.length` characters before the opening quote.
 */
export function readString(text: string, start: number, prefix: string): StringToken {
  const flags = prefix.toLowerCase();
  if (flags.includes('b')) throw new ParseFailure(start, 'bytes literals are not supported');
  if (flags.includes('f')) throw new ParseFailure(start, 'f-strings are not supported: arguments must be literals');
  const raw = flags.includes('r');
  const open = start + prefix.length;
  const quote = text[open] ?? '';
  const closer = text.startsWith(quote.repeat(3), open) ? quote.repeat(3) : quote;
  const unterminated =
    closer.length === 3 ? 'unterminated triple-quoted string literal' : 'unterminated string literal';
  let value = '';
  let i = open + closer.length;
  for (;;) {
    if (text.startsWith(closer, i)) return { value, end: i + closer.length };
    const ch = text[i];
    if (ch === undefined) throw new ParseFailure(start, unterminated);
    if (ch === '\n' || ch === '\r') {
      if (closer.length === 1) throw new ParseFailure(start, unterminated);
      // Python reads source with universal newlines, so a CRLF inside the literal is one '\n'.
      value += '\n';
      i += text.startsWith('\r\n', i) ? 2 : 1;
    } else if (ch !== '\\') {
      value += ch;
      i += 1;
    } else if (raw) {
      // A raw string keeps the backslash, but the backslash still stops the next quote closing it.
      if (i + 1 >= text.length) throw new ParseFailure(start, unterminated);
      value += text.slice(i, i + 2);
      i += 2;
    } else {
      const escape = readEscape(text, i);
      value += escape.value;
      i = escape.end;
    }
  }
}

function readEscape(text: string, at: number): StringToken {
  const ch = text[at + 1];
  if (ch === undefined) throw new ParseFailure(at, 'unterminated string literal');
  if (ch === '\n') return { value: '', end: at + 2 };
  if (ch === '\r') return { value: '', end: text.startsWith('\r\n', at + 1) ? at + 3 : at + 2 };
  const simple = SIMPLE_ESCAPES[ch];
  if (simple !== undefined) return { value: simple, end: at + 2 };
  const octal = /^[0-7]{1,3}/.exec(text.slice(at + 1, at + 4))?.[0];
  if (octal !== undefined) return { value: String.fromCodePoint(parseInt(octal, 8)), end: at + 1 + octal.length };
  const hexLength = ({ x: 2, u: 4, U: 8 } as Record<string, number>)[ch];
  if (hexLength !== undefined) return readHexEscape(text, at, ch, hexLength);
  if (ch === 'N') throw new ParseFailure(at, 'named unicode escapes (\\N{...}) are not supported');
  // Python keeps unknown escapes such as "\d" as written (with a warning).
  return { value: `\\${ch}`, end: at + 2 };
}

function readHexEscape(text: string, at: number, kind: string, length: number): StringToken {
  const digits = text.slice(at + 2, at + 2 + length);
  if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(digits)) {
    throw new ParseFailure(at, `truncated \\${kind}${'X'.repeat(length)} escape`);
  }
  const code = parseInt(digits, 16);
  if (code > 0x10ffff) throw new ParseFailure(at, `illegal Unicode character in \\${kind} escape`);
  return { value: String.fromCodePoint(code), end: at + 2 + length };
}
