import { defineChallenge } from '../../challenge.js';
import { WORDS } from '../words.js';

interface Params {
  /** Heights (px) of the filler sections before the code block. */
  fillers: { title: string; height: number }[];
  after: number;
}

/** A long page; the code block reveals its code only once it is scrolled into the viewport. */
export const scrollToFind = defineChallenge<Params>({
  type: 'scroll_to_find',
  title: 'Scroll to find',
  generate(rng) {
    const count = rng.int(4, 8);
    const titles = rng.sample(WORDS, count);
    return {
      fillers: titles.map((title) => ({ title, height: rng.round(300, 700, 20) })),
      after: rng.round(200, 600, 20),
    };
  },
  render: (ctx) => {
    const { fillers, after } = ctx.params;
    ctx.instruct(
      'Somewhere further down this page is the code block. Scroll until it is on screen: it reveals the code only when it enters the viewport.',
    );
    for (const filler of fillers) {
      ctx.area.append(
        ctx.el(
          'div',
          { class: 'filler', style: `height: ${filler.height}px` },
          ctx.el('h3', {}, `${filler.title} section`),
          ctx.el('p', {}, 'Nothing to find here. Keep scrolling.'),
        ),
      );
    }
    const block = ctx.el(
      'section',
      { 'aria-label': 'Code block', class: 'code-block' },
      ctx.el('p', {}, 'The code appears here once this block is on screen.'),
    );
    ctx.area.append(
      block,
      ctx.el('div', { class: 'filler', style: `height: ${after}px` }, ctx.el('p', {}, 'End of the page.')),
    );
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        ctx.say('Code block reached.');
        ctx.reveal(undefined, block);
      },
      { threshold: 0.6 },
    );
    observer.observe(block);
    ctx.onCleanup(() => observer.disconnect());
  },
  css: `.puzzle .filler { border-bottom: 1px dashed #ccc; }
  .puzzle .code-block { padding: 24px; border: 2px dashed #888; min-height: 160px; }`,
});
