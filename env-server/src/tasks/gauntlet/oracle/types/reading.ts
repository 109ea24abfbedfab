import { OracleError } from '../../../policy/action-text.js';
import { CODE_ALPHABET, CODE_PATTERN } from '../../challenge-types.js';
import { act } from '../../../policy/act.js';
import type { AxNode } from '../../../policy/axtree-lines.js';
import { below, must, numberIn, region, textOf } from '../../../policy/ax-query.js';
import { action, code, type ChallengeOracle } from '../move.js';

/**
 * Evaluates the printed style sheet over the grid: every cell's final opacity, font size and
 * colour, rules applied in order (the page prints them in cascade order). The one drawn cell per
 * column gives that column's character.
 */
export const solveComputedStyle: ChallengeOracle = (view) => {
  const rules = textOf(must(region(view.puzzle, 'region', 'Style sheet'), 'region "Style sheet"'))
    .split('\n')
    .map(parseRule);
  const grid = readGrid(view.puzzle);
  let background = '';
  const cells = grid.map(({ layer, chars }) =>
    chars.map((char, c) => ({ layer, column: c + 1, char, style: new Map<string, string>() })),
  );
  for (const rule of rules) {
    if (rule.target === 'grid') {
      background = rule.style.get('background') ?? background;
      continue;
    }
    for (const cell of cells.flat()) {
      if (rule.target === 'cell' && (rule.layer !== cell.layer || rule.column !== cell.column)) continue;
      for (const [property, value] of rule.style) cell.style.set(property, value);
    }
  }
  const drawn = (style: Map<string, string>) =>
    parseFloat(style.get('opacity') ?? '1') > 0 &&
    parseFloat(style.get('font-size') ?? '1') > 0 &&
    style.get('color') !== background;
  const shown = grid[0]!.chars.map((_, c) => {
    const visible = cells.map((row) => row[c]!).filter((cell) => drawn(cell.style));
    if (visible.length !== 1)
      throw new OracleError(`column c${c + 1} has ${visible.length} drawn cells by the style sheet, not one`);
    return visible[0]!.char;
  });
  const result = shown.join('');
  if (!CODE_PATTERN.test(result)) throw new OracleError(`the drawn characters read ${JSON.stringify(result)}`);
  return code(result);
};

interface StyleRule {
  target: 'grid' | 'all' | 'cell';
  layer?: string;
  column?: number;
  style: Map<string, string>;
}

/** One printed rule: `.layers { … }`, `.layers td { … }` or `.layers .<layer> .c<n> { … }`. */
function parseRule(line: string): StyleRule {
  const [, selector, body] = /^(.+?)\s*\{(.*)\}\s*$/.exec(line.trim()) ?? [];
  if (selector === undefined || body === undefined) throw new OracleError(`unreadable style rule: ${line}`);
  const style = new Map(
    body
      .split(';')
      .map((d) => d.split(':').map((s) => s.trim()))
      .filter((d): d is [string, string] => d.length === 2 && d[0] !== '')
      .map(([p, v]) => [p.toLowerCase(), v.toLowerCase()] as const),
  );
  const parts = selector.trim().split(/\s+/);
  if (parts.length === 1) return { target: 'grid', style };
  if (parts.length === 2 && parts[1] === 'td') return { target: 'all', style };
  const cell = /^\.(\S+) \.c(\d+)$/.exec(parts.slice(1).join(' '));
  if (!cell) throw new OracleError(`unknown selector in style rule: ${line}`);
  return { target: 'cell', layer: cell[1]!, column: Number(cell[2]), style };
}

/** The grid's body rows: the layer named in the row header, then one character per cell. */
function readGrid(puzzle: readonly AxNode[]): { layer: string; chars: string[] }[] {
  const rows = puzzle
    .map((node, i) => ({ node, i }))
    .filter(({ node }) => node.role === 'row')
    .map(({ i }) => below(puzzle, i))
    .filter((cells) => cells.some((n) => n.role === 'rowheader'))
    .map((cells) => ({
      layer: cells.find((n) => n.role === 'rowheader')!.name,
      chars: cells.filter((n) => n.role === 'cell').map((n) => n.name),
    }));
  if (rows.length === 0 || rows.some((r) => r.chars.length !== rows[0]!.chars.length))
    throw new OracleError('the character grid has no rows or rows of different lengths');
  return rows;
}

/** A half-known code in the code box: the known half, and `___` where the other half goes. */
const BLANK = '___';
const HALF = /^[A-Z0-9]{3}$/;

/**
 * Samples the flash box more often than a flash lasts. The code box is the oracle's only memory
 * (it keeps none of its own): a tagged half, caught in either order, goes in as a half-blank code
 * (`AB1___` or `___2CD`); the other half, caught later, completes it. Only that shape is trusted as
 * a memory, and only the half it holds, so junk a wrong move left in the box (six characters, or
 * three) is never joined to a half: it is overwritten by the next tagged half.
 */
export const solveMutationObserver: ChallengeOracle = (view) => {
  const tag = must(/halves tagged "([^"]+)"/.exec(view.instructions)?.[1], 'tag');
  const flash = textOf(region(view.puzzle, 'region', 'Flash box') ?? []);
  const [, part, half] = new RegExp(`(?:^|[^A-Za-z])${tag}, part ([12]) of 2: ([A-Z0-9]{3})`).exec(flash) ?? [];
  const { first, second } = rememberedHalves(view.codeBox.value ?? '');
  if (part === '1' && second) return code(half + second);
  if (part === '2' && first) return code(first + half);
  if (part === '1' && first !== half) return action(act.fill(view.codeBox, half + BLANK));
  if (part === '2' && second !== half) return action(act.fill(view.codeBox, BLANK + half!));
  const windowMs = must(numberIn(view.instructions, /for (\d+) ms each/), 'flash length');
  // An observation takes time too: waiting half a flash still sees every flash at least once.
  return action(act.noop(Math.floor(windowMs / 2)));
};

/** The half the code box remembers, if it holds a half-blank code the oracle writes. */
export function rememberedHalves(typed: string): { first?: string; second?: string } {
  const [a, b] = [typed.slice(0, 3), typed.slice(3)];
  if (typed.length !== 6) return {};
  if (HALF.test(a) && b === BLANK) return { first: a };
  if (a === BLANK && HALF.test(b)) return { second: b };
  return {};
}

/** Applies the stated rule to the obfuscated string. */
export const solveObfuscated: ChallengeOracle = (view) => {
  const text = must(/Obfuscated:\s*\n?(\S+)/.exec(textOf(view.puzzle))?.[1], 'obfuscated string');
  return code(deobfuscate(view.instructions, text));
};

/** The inverse of each rule the page can state, read from its wording. */
export function deobfuscate(rule: string, text: string): string {
  if (/written backwards/.test(rule)) return [...text].reverse().join('');
  if (/every second character/.test(rule)) return [...text].filter((_, i) => i % 2 === 0).join('');
  if (/delete every lower-case letter and symbol/.test(rule))
    return [...text].filter((c) => CODE_ALPHABET.includes(c)).join('');
  const positions = /at positions ([\d, ]+)/.exec(rule)?.[1];
  if (positions)
    return positions
      .split(',')
      .map((p) => text[Number(p.trim()) - 1])
      .join('');
  throw new OracleError(`no known obfuscation rule in: ${rule}`);
}
