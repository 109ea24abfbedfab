import type { Literal } from './types.js';

// Python's str.isprintable(): categories "Other" and "Separator" are escaped, except the space.
const NON_PRINTABLE = /^(?! )[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;
const NAMED_ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Formats a literal the way Python's `repr` does, so error messages and observations read
 * exactly like BrowserGym's. Tuples print as lists and integral floats as ints (`2.0` → `2`):
 * a `Literal` no longer knows which it was.
 */
export function pyRepr(value: Literal): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return reprNumber(value);
  if (typeof value === 'string') return reprString(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  const items = Object.entries(value).map(([key, item]) => `${reprString(key)}: ${pyRepr(item)}`);
  return `{${items.join(', ')}}`;
}

function reprNumber(n: number): string {
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

function reprString(text: string): string {
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
