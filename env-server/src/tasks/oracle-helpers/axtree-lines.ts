/**
 * Reads BrowserGym's AXTree text back into nodes, so oracles act on exactly what an agent sees:
 * `\t*[bid] role 'name' value='v', prop, key=value`. Strings are Python reprs (either quote).
 */
export interface AxNode {
  /** Number of leading tabs (printed ancestors). */
  depth: number;
  /** Absent for nodes printed without a bid (RootWebArea, StaticText). */
  bid: string | undefined;
  role: string;
  name: string;
  value: string | undefined;
  /** Bare flags map to `true`; `key=value` keeps the value text (unquoted when it was quoted). */
  props: Map<string, string | true>;
}

export class AxtreeParseError extends Error {
  override readonly name = 'AxtreeParseError';
}

export function parseAxtree(text: string): AxNode[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map(parseAxtreeLine);
}

export function parseAxtreeLine(line: string): AxNode {
  const fail = (why: string): never => {
    throw new AxtreeParseError(`${why} in AXTree line ${JSON.stringify(line)}`);
  };
  let at = 0;
  while (line[at] === '\t') at++;
  const depth = at;
  const bidMatch = /^\[([^\]\s]+)\] /.exec(line.slice(at));
  const bid = bidMatch?.[1];
  if (bidMatch) at += bidMatch[0].length;
  const role = /^[^\s,]+/.exec(line.slice(at))?.[0] ?? fail('missing role');
  at += role.length;

  let name = '';
  if (line[at] === ' ' && isQuote(line[at + 1])) [name, at] = readPyString(line, at + 1, fail);
  let value: string | undefined;
  if (line.startsWith(' value=', at)) [value, at] = readValue(line, at + ' value='.length, fail);

  const props = new Map<string, string | true>();
  while (line.startsWith(', ', at)) {
    at += 2;
    const key = /^[^\s,=]+/.exec(line.slice(at))?.[0] ?? fail(`empty property at ${at}`);
    at += key.length;
    if (line[at] !== '=') {
      props.set(key, true);
      continue;
    }
    at++;
    if (isQuote(line[at])) {
      let text: string;
      [text, at] = readPyString(line, at, fail);
      props.set(key, text);
    } else {
      const end = line.indexOf(', ', at);
      const stop = end < 0 ? line.length : end;
      props.set(key, line.slice(at, stop));
      at = stop;
    }
  }
  if (at !== line.length) fail(`unexpected text at ${at}`);
  return { depth, bid, role, name, value, props };
}

/** A value is a Python string, or a bare number (a spinbutton's or slider's numeric value). */
function readValue(line: string, start: number, fail: (why: string) => never): [string, number] {
  if (isQuote(line[start])) return readPyString(line, start, fail);
  const bare = /^-?[\d.e+-]+/i.exec(line.slice(start))?.[0] ?? fail('unreadable value');
  return [bare, start + bare.length];
}

function isQuote(char: string | undefined): boolean {
  return char === "'" || char === '"';
}

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '\\': '\\', "'": "'", '"': '"' };
const HEX_ESCAPE_DIGITS: Record<string, number> = { x: 2, u: 4, U: 8 };

/** Reads the Python string literal starting at `start` (its quote); returns [text, index after it]. */
function readPyString(line: string, start: number, fail: (why: string) => never): [string, number] {
  const quote = line[start];
  let out = '';
  for (let at = start + 1; at < line.length; at++) {
    const char = line[at]!;
    if (char === quote) return [out, at + 1];
    if (char !== '\\') {
      out += char;
      continue;
    }
    const code = line[++at] ?? fail('dangling backslash');
    const digits = HEX_ESCAPE_DIGITS[code];
    if (digits !== undefined) {
      const hex = line.slice(at + 1, at + 1 + digits);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits) fail(`bad \\${code} escape`);
      out += String.fromCodePoint(parseInt(hex, 16));
      at += digits;
    } else {
      out += SIMPLE_ESCAPES[code] ?? `\\${code}`;
    }
  }
  return fail('unterminated string');
}
