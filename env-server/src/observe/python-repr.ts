/**
 * Python's `repr` and `format(x, '.Nf')` for the values an AX tree holds, so our text matches what
 * BrowserGym prints byte for byte (models trained on its observations see the same tokens).
 */

/** Characters Python's `str.isprintable()` rejects (other than the plain space). */
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** `repr(s)` for a Python str: single quotes unless the text has one and no double quote. */
export function pyStr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch !== ' ' && NOT_PRINTABLE.test(ch)) out += escapeCodePoint(ch.codePointAt(0) as number);
    else out += ch;
  }
  return out + quote;
}

function escapeCodePoint(code: number): string {
  const hex = code.toString(16);
  if (code <= 0xff) return `\\x${hex.padStart(2, '0')}`;
  if (code <= 0xffff) return `\\u${hex.padStart(4, '0')}`;
  return `\\U${hex.padStart(8, '0')}`;
}

/**
 * `repr(x)` for a JSON number as Python's json module would have parsed it: integral values are
 * ints (CDP writes them without a fraction), others floats, which Python writes in scientific
 * notation below 1e-4 where JavaScript still writes digits.
 */
export function pyNumber(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (Number.isInteger(x)) return BigInt(x).toString();
  if (Math.abs(x) >= 1e-4) return String(x);
  const [mantissa, exponent] = x.toExponential().split('e') as [string, string];
  const sign = exponent.startsWith('-') ? '-' : '+';
  return `${mantissa}e${sign}${exponent.replace(/^[-+]/, '').padStart(2, '0')}`;
}

/** `repr(v)` for str, int, float, bool and None; anything else (never seen in AX values) as JSON. */
export function pyRepr(value: unknown): string {
  if (typeof value === 'string') return pyStr(value);
  if (typeof value === 'number') return pyNumber(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (value === null || value === undefined) return 'None';
  return JSON.stringify(value);
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
