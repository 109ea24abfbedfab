import { CODE_ALPHABET } from '../../codes.js';
import { defineChallenge } from '../../challenge.js';
import { WORDS } from '../words.js';

/** One flash: a tagged half code. `text` is empty for the real code's halves (the page fills them in). */
interface Flash {
  tag: string;
  part: 1 | 2;
  text: string;
}

interface Params {
  gapMs: number;
  windowMs: number;
  tag: string;
  flashes: Flash[];
}

/**
 * Half codes flash in the box one at a time, each tagged; the code is the two halves tagged with
 * the stated word, first then second. No six-character code is ever on screen at once, and the
 * other tags' halves are decoys: the halves must be caught, told apart and joined.
 */
export const mutationObserver = defineChallenge<Params>({
  type: 'mutation_observer',
  title: 'Flashing halves',
  generate(rng) {
    const [tag, ...others] = rng.sample(WORDS, 3);
    const flashes: Flash[] = [tag!, ...others].flatMap((t, i) =>
      ([1, 2] as const).map((part) => ({ tag: t, part, text: i === 0 ? '' : rng.string(CODE_ALPHABET, 3) })),
    );
    return {
      gapMs: rng.round(100, 200, 50),
      windowMs: rng.round(350, 450, 50),
      tag: tag!,
      flashes: rng.shuffle(flashes),
    };
  },
  render: (ctx) => {
    const { gapMs, windowMs, tag, flashes } = ctx.params;
    ctx.instruct(
      `Half codes flash in the box below, one at a time, for ${windowMs} ms each. The code is the two halves tagged "${tag}": part 1 then part 2. Halves with other tags are decoys.`,
    );
    const box = ctx.el('section', { 'aria-label': 'Flash box', class: 'flash' }, ctx.el('p', {}, 'Watch this box.'));
    const code = ctx.code();
    let next = 0;
    const cycle = () => {
      ctx.later(gapMs, () => {
        const flash = flashes[next++ % flashes.length]!;
        const text = flash.text || (flash.part === 1 ? code.slice(0, 3) : code.slice(3));
        const shown = ctx.el('output', {}, `${flash.tag}, part ${flash.part} of 2: ${text}`);
        box.append(shown);
        ctx.later(windowMs, () => {
          shown.remove();
          cycle();
        });
      });
    };
    ctx.area.append(box);
    cycle();
  },
  css: `.puzzle .flash { padding: 16px; border: 2px solid #c84; min-height: 60px; font: bold 20px monospace; }`,
});
