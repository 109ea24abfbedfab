import { defineChallenge } from '../../challenge.js';
import { WORDS } from '../words.js';

interface Params {
  cards: string[];
  target: string;
  dwellMs: number;
}

/** Keep the pointer on the named card long enough; leaving early cancels, decoy cards count as mistakes. */
export const hoverReveal = defineChallenge<Params>({
  type: 'hover_reveal',
  title: 'Hover reveal',
  generate(rng) {
    const cards = rng.sample(WORDS, rng.int(3, 6));
    return { cards, target: rng.pick(cards), dwellMs: rng.round(150, 400, 50) };
  },
  render: (ctx) => {
    const { cards, target, dwellMs } = ctx.params;
    ctx.instruct(
      `Hover over the "${target}" card and keep the pointer there for ${dwellMs} ms to reveal the code. Moving away earlier cancels; the other cards hide nothing.`,
    );
    let round = 0;
    const row = ctx.el('div', { class: 'cards' });
    for (const name of cards) {
      const card = ctx.el('section', { 'aria-label': `${name} card`, class: 'card' }, ctx.el('p', {}, name));
      card.addEventListener('mouseenter', () => {
        const mine = ++round;
        ctx.say(`Holding on "${name}" (needs ${dwellMs} ms).`);
        ctx.later(dwellMs, () => {
          if (mine !== round) return;
          if (name === target) {
            ctx.say(`Held on "${name}" long enough.`);
            ctx.reveal();
          } else {
            ctx.fail(`Nothing under "${name}".`);
          }
        });
      });
      card.addEventListener('mouseleave', () => {
        round += 1;
        ctx.say(`Pointer left "${name}".`);
      });
      row.append(card);
    }
    ctx.area.append(row);
  },
  css: `.puzzle .cards { display: flex; flex-wrap: wrap; gap: 16px; }
  .puzzle .card { width: 120px; height: 90px; border: 1px solid #99a; border-radius: 6px; display: flex; align-items: center; justify-content: center; background: #f3f5ff; }`,
});
