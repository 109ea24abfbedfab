import { ShapeError } from './errors.js';

/**
 * A dimension is a number or a symbol. Symbols name runtime sizes (`batch`, `seq`); products of
 * symbols are spelled `batch*seq` so a Reshape that merges dims still knows what it made.
 */
export type Dim = number | string;
export type Shape = readonly Dim[];

export function isStaticShape(shape: Shape): shape is readonly number[] {
  return shape.every((d) => typeof d === 'number');
}

export function formatShape(shape: Shape): string {
  return `[${shape.join(', ')}]`;
}

export function sameShape(a: Shape, b: Shape): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}

export function normalizeAxis(axis: number, rank: number): number {
  const a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank) throw new ShapeError(`axis ${axis} is out of range for rank ${rank}`);
  return a;
}

/** Numpy broadcasting; two different symbols, or a symbol against a number other than 1, are refused. */
export function broadcastShapes(...shapes: Shape[]): Dim[] {
  const rank = Math.max(...shapes.map((s) => s.length));
  const out: Dim[] = [];
  for (let i = 0; i < rank; i++) {
    let dim: Dim = 1;
    for (const s of shapes) {
      const d = s[s.length - rank + i] ?? 1;
      if (d === 1 || d === dim) continue;
      if (dim !== 1)
        throw new ShapeError(
          `cannot broadcast ${shapes.map(formatShape).join(' with ')} (dim ${rank - i} from the end: ${dim} vs ${d})`,
        );
      dim = d;
    }
    out.push(dim);
  }
  return out;
}

interface Monomial {
  coef: number;
  syms: string[];
}

let freshCounter = 0;
/** A dim nothing at build time can name (e.g. a Range length); unique so it never equals another. */
export function freshDim(hint = 'dim'): string {
  return `${hint}?${++freshCounter}`;
}

function parse(d: Dim): Monomial {
  if (typeof d === 'number') return { coef: d, syms: [] };
  let coef = 1;
  const syms: string[] = [];
  for (const part of splitTopLevel(d)) {
    if (/^\d+$/.test(part)) coef *= Number(part);
    else syms.push(part);
  }
  return { coef, syms: syms.sort() };
}

// `(a+b)*c` splits into `(a+b)` and `c`: sums stay opaque factors.
function splitTopLevel(d: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < d.length; i++) {
    if (d[i] === '(') depth++;
    else if (d[i] === ')') depth--;
    else if (d[i] === '*' && depth === 0) {
      parts.push(d.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(d.slice(start));
  return parts;
}

function format(m: Monomial): Dim {
  if (m.syms.length === 0) return m.coef;
  return (m.coef === 1 ? m.syms : [String(m.coef), ...m.syms]).join('*');
}

export function dimProduct(dims: readonly Dim[]): Dim {
  const acc: Monomial = { coef: 1, syms: [] };
  for (const d of dims) {
    const m = parse(d);
    acc.coef *= m.coef;
    acc.syms.push(...m.syms);
  }
  acc.syms.sort();
  return format(acc);
}

/** a / b when it is exact at build time, else undefined. */
export function dimQuotient(a: Dim, b: Dim): Dim | undefined {
  const ma = parse(a);
  const mb = parse(b);
  if (mb.coef === 0 || ma.coef % mb.coef !== 0) return undefined;
  const syms = [...ma.syms];
  for (const s of mb.syms) {
    const at = syms.indexOf(s);
    if (at < 0) return undefined;
    syms.splice(at, 1);
  }
  return format({ coef: ma.coef / mb.coef, syms });
}

export function dimSum(dims: readonly Dim[]): Dim {
  if (dims.every((d) => typeof d === 'number')) return (dims as number[]).reduce((a, b) => a + b, 0);
  return `(${dims.join('+')})`;
}
