import { OracleError } from '../../../oracle-helpers/action-text.js';
import { CODE_PATTERN } from '../../codes.js';
import type { AxNode } from '../../../oracle-helpers/axtree-lines.js';
import { below, must, region, textOf } from '../../../oracle-helpers/ax-query.js';
import { code, type ChallengeOracle } from '../../oracle/move.js';

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
