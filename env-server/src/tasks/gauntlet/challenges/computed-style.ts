import { CODE_ALPHABET } from '../challenge-types.js';
import { defineChallenge } from '../challenge.js';

/** How a character reaches the screen: plain text, CSS generated content, or CSS upper-casing. */
type Tile =
  | { kind: 'text'; char: string }
  | { kind: 'pseudo'; char: string; decoy: string; cls: string }
  | { kind: 'lower'; char: string };

interface Params {
  tiles: Tile[];
  /** Hidden decoy characters inserted before tile i (shown in the markup, never on screen). */
  ghosts: { before: number; char: string }[];
}

/**
 * The markup lies: some characters are drawn by `::after` rules (the element itself holds a
 * hidden decoy), some are lower case in the markup and upper-cased by CSS, and hidden decoy
 * characters sit between tiles. Reading the rendered text (the AXTree) gives the code.
 */
export const computedStyle = defineChallenge<Params>({
  type: 'computed_style',
  title: 'Computed style',
  generate(rng, code) {
    const randomChar = () => CODE_ALPHABET[rng.int(0, CODE_ALPHABET.length - 1)]!;
    const tiles: Tile[] = [...code].map((char) => {
      const kind = rng.pick(['text', 'pseudo', 'pseudo', 'lower'] as const);
      if (kind === 'pseudo')
        return { kind, char, decoy: randomChar(), cls: `g${rng.string('abcdefghijklmnopqrstuvwxyz', 5)}` };
      return { kind: /[A-Z]/.test(char) ? kind : 'text', char: kind === 'lower' ? char.toLowerCase() : char };
    });
    const ghosts = Array.from({ length: rng.int(2, 4) }, () => ({
      before: rng.int(0, tiles.length),
      char: randomChar(),
    }));
    return { tiles, ghosts };
  },
  render: (ctx) => {
    const { tiles, ghosts } = ctx.params;
    ctx.instruct(
      'The code is displayed below, but the markup does not match the screen: CSS draws some characters and hides others. Read the six characters as displayed, left to right.',
    );
    const rules = ['.puzzle .ghost { display: none; }', '.puzzle .lower { text-transform: uppercase; }'];
    const display = ctx.el('div', { 'aria-label': 'Code display', role: 'group', class: 'tiles' });
    tiles.forEach((tile, i) => {
      for (const ghost of ghosts.filter((g) => g.before === i))
        display.append(ctx.el('span', { class: 'tile ghost' }, ghost.char));
      if (tile.kind === 'pseudo') {
        rules.push(`.puzzle .${tile.cls}::after { content: "${tile.char}"; }`);
        display.append(ctx.el('span', { class: `tile ${tile.cls}` }, ctx.el('span', { class: 'ghost' }, tile.decoy)));
      } else {
        display.append(ctx.el('span', { class: tile.kind === 'lower' ? 'tile lower' : 'tile' }, tile.char));
      }
    });
    for (const ghost of ghosts.filter((g) => g.before === tiles.length))
      display.append(ctx.el('span', { class: 'tile ghost' }, ghost.char));
    // Rules in random-looking order (by class name), so the stylesheet does not spell the code either.
    ctx.area.append(ctx.el('style', {}, rules.sort().join('\n')), display);
  },
  css: `.puzzle .tiles { display: flex; gap: 6px; }
  .puzzle .tile { display: inline-block; width: 28px; padding: 6px 0; text-align: center; font: bold 20px monospace; border: 1px solid #aab; background: #f6f6ff; }`,
});
