import { CODE_ALPHABET, CODE_LENGTH } from '../../codes.js';
import { defineChallenge } from '../../challenge.js';
import { WORDS } from '../words.js';

interface Params {
  /** Each row's class (a seeded word), also printed in the row's first cell. */
  layers: string[];
  /** rows[layer][column]: one character per cell; every row is in the AXTree and the markup. */
  rows: string[][];
  /** The style sheet, one rule per line, in cascade order: the page applies exactly these. */
  rules: string[];
}

/** How a decoy cell stays undrawn: the base rule's opacity 0, or a rule that seems to show it. */
type Trick = 'none' | 'background' | 'size' | 'undone';

const BACKGROUNDS = ['#f6f6ff', '#fdf8ec', '#eef7f0', '#f4f0fa', '#fbf3f3'];
const INKS = ['#1a1a2e', '#23313f', '#2f1d3a', '#1d3326'];

/**
 * Several layers of characters fill one grid, and every character is in the AXTree and in the
 * markup; the page's style sheet (printed on the page and applied as written) decides which one
 * cell per column is drawn. Decoy cells are undrawn by opacity 0, a colour equal to the grid's
 * background, a zero font size, or a rule that a later rule undoes; the drawn cell may itself be
 * hidden by an early rule and restored by a later one. Only evaluating the cascade gives the code.
 */
export const computedStyle = defineChallenge<Params>({
  type: 'computed_style',
  title: 'Computed style',
  generate(rng, code) {
    const layers = rng.sample(WORDS, rng.int(3, 4)).map((w) => w.toLowerCase());
    const background = rng.pick(BACKGROUNDS);
    const ink = rng.pick(INKS);
    // The layer drawn in each column: at least two layers, so no row reads as the code.
    let drawn: number[];
    do drawn = Array.from({ length: CODE_LENGTH }, () => rng.int(0, layers.length - 1));
    while (new Set(drawn).size < 2);
    const rows = layers.map((_, l) =>
      [...code].map((char, c) => {
        if (drawn[c] === l) return char;
        const others = CODE_ALPHABET.replace(char, '');
        return others[rng.int(0, others.length - 1)]!;
      }),
    );
    const early: string[] = [];
    const late: string[] = [];
    const rule = (layer: string, column: number, body: string) => `.layers .${layer} .c${column + 1} { ${body} }`;
    for (let c = 0; c < CODE_LENGTH; c++) {
      // The drawn cell: shown plainly, or hidden by an early rule and restored by a later one.
      const shown = layers[drawn[c]!]!;
      const plain = rng.chance(0.5);
      if (plain) early.push(rule(shown, c, 'opacity: 1;'));
      else {
        const byColour = rng.chance(0.5);
        early.push(rule(shown, c, byColour ? `opacity: 1; color: ${background};` : 'opacity: 1; font-size: 0;'));
        late.push(rule(shown, c, byColour ? `color: ${ink};` : 'font-size: 20px;'));
      }
      // Decoys: at least one per column looks drawn by some rule but is not.
      const decoys = layers.filter((_, l) => l !== drawn[c]);
      const tricks: Trick[] = decoys.map(() => rng.pick<Trick>(['none', 'background', 'size', 'undone']));
      if (!tricks.some((t) => t !== 'none'))
        tricks[rng.int(0, tricks.length - 1)] = rng.pick<Trick>(['background', 'size', 'undone']);
      decoys.forEach((layer, i) => {
        const trick = tricks[i]!;
        if (trick === 'background') early.push(rule(layer, c, `opacity: 1; color: ${background};`));
        if (trick === 'size') early.push(rule(layer, c, 'opacity: 1; font-size: 0;'));
        if (trick === 'undone') {
          early.push(rule(layer, c, 'opacity: 1;'));
          late.push(rule(layer, c, 'opacity: 0;'));
        }
      });
    }
    const rules = [
      `.layers { background: ${background}; }`,
      `.layers td { color: ${ink}; opacity: 0; font-size: 20px; }`,
      ...rng.shuffle(early),
      ...rng.shuffle(late),
    ];
    return { layers, rows, rules };
  },
  render: (ctx) => {
    const { layers, rows, rules } = ctx.params;
    ctx.instruct(
      `${layers.length} layers of characters share the grid below, but CSS draws only one character in each column. The page's style sheet is printed under the grid in cascade order (a later rule overrides an earlier one). Each row's cells have that row's layer class (named in its first cell) and their column's class, c1 to c6.`,
      "A character is drawn only if its cell ends up with an opacity above 0, a font size above 0 and a colour that differs from the grid's background. Enter the six drawn characters, c1 to c6.",
    );
    const table = ctx.el('table', { class: 'layers' });
    const head = ctx.el('tr', {}, ctx.el('th', { scope: 'col' }, 'layer'));
    for (let c = 1; c <= rows[0]!.length; c++) head.append(ctx.el('th', { scope: 'col' }, `c${c}`));
    const body = ctx.el('tbody', {});
    layers.forEach((layer, l) => {
      const row = ctx.el('tr', { class: layer }, ctx.el('th', { scope: 'row' }, layer));
      rows[l]!.forEach((char, c) => row.append(ctx.el('td', { class: `c${c + 1}` }, char)));
      body.append(row);
    });
    table.append(ctx.el('thead', {}, head), body);
    const sheet = ctx.el('section', { 'aria-label': 'Style sheet', class: 'sheet' });
    for (const line of rules) sheet.append(ctx.el('div', {}, line));
    ctx.area.append(ctx.el('style', {}, rules.join('\n')), table, sheet);
  },
  css: `.puzzle .layers { border-collapse: collapse; }
  .puzzle .layers th { font: 12px sans-serif; padding: 2px 6px; color: #555; }
  .puzzle .layers td { width: 28px; height: 32px; text-align: center; font-family: monospace; font-weight: bold; border: 1px solid #aab; }
  .puzzle .sheet { margin-top: 10px; font: 13px monospace; white-space: pre; }`,
});
