import type { Literal } from './literal.js';

// Python's str.isprintable(): categories "Other" and "Separator" are escaped, except the space.
const NON_PRINTABLE = /^(?! )[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;
const NAMED_ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Python's `repr` (and `format(x, '.Nf')`), so action errors and AXTree text read byte for byte
 * like BrowserGym's — models trained on its observations see the same tokens. One module for
 * both: the action language and the observation must never disagree on quoting.
 */

/**
 * Formats a literal the way Python's `repr` does. Tuples print as lists and integral floats as
 * ints (`2.0` → `2`): a `Literal` no longer knows which it was (CDP writes integral numbers
 * without a fraction too, which Python's json module reads as ints).
 */
export function pyRepr(value: Literal | undefined): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return pyNumber(value);
  if (typeof value === 'string') return pyStr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  const items = Object.entries(value).map(([key, item]) => `${pyStr(key)}: ${pyRepr(item)}`);
  return `{${items.join(', ')}}`;
}

export function pyNumber(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  // Python ints have no negative zero, so -0 can only have been the float -0.0.
  if (Object.is(n, -0)) return '-0.0';
  if (Number.isInteger(n)) return Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString();
  // Both languages print the shortest round-trip digits; they differ only in when they switch
  // to exponent notation (Python: exponent < -4) and how they write the exponent (`e-05`).
  const [mantissa = '', exponentText = ''] = n.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent >= -4) return String(n);
  return `${mantissa}e-${String(-exponent).padStart(2, '0')}`;
}

/** `repr(s)` for a Python str: single quotes unless the text has one and no double quote. */
export function pyStr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    if (ch === quote) out += `\\${ch}`;
    else out += NAMED_ESCAPES[ch] ?? (NON_PRINTABLE.test(ch) ? escapeCodePoint(ch.codePointAt(0) ?? 0) : ch);
  }
  return out + quote;
}

function escapeCodePoint(code: number): string {
  const hex = code.toString(16);
  if (code < 0x100) return `\\x${hex.padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${hex.padStart(4, '0')}`;
  return `\\U${hex.padStart(8, '0')}`;
}

/** `format(x, f'.{decimals}f')`: like toFixed, but exact halves round to even as Python does. */
export function pyFixed(x: number, decimals: number): string {
  const scaled = Math.abs(x) * 10 ** decimals;
  let text = x.toFixed(decimals);
  if (scaled % 1 === 0.5 && Math.floor(scaled) % 2 === 0) {
    text = ((Math.floor(scaled) / 10 ** decimals) * Math.sign(x)).toFixed(decimals);
  }
  if ((x < 0 || Object.is(x, -0)) && !text.startsWith('-')) text = `-${text}`;
  return text;
}
