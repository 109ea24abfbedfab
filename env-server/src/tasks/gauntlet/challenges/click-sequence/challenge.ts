import { defineChallenge } from '../../challenge.js';
import { WORDS } from '../words.js';

interface Params {
  order: string[];
  buttons: string[];
  columns: number;
}

/** Click the named buttons in order; a wrong button starts the sequence over. */
export const clickSequence = defineChallenge<Params>({
  type: 'click_sequence',
  title: 'Click sequence',
  generate(rng) {
    const length = rng.int(3, 5);
    const names = rng.sample(WORDS, length + rng.int(2, 4));
    return { order: names.slice(0, length), buttons: rng.shuffle(names), columns: rng.int(2, 4) };
  },
  render: (ctx) => {
    const { order, buttons, columns } = ctx.params;
    ctx.instruct(
      `Click the buttons in this order: ${order.map((name) => `"${name}"`).join(', ')}. A wrong button starts the sequence over.`,
    );
    let done = 0;
    const progress = () => `Progress: ${done} of ${order.length} clicked in order.`;
    const grid = ctx.el('div', { class: 'grid', style: `grid-template-columns: repeat(${columns}, max-content)` });
    for (const name of buttons) {
      const button = ctx.el('button', { type: 'button' }, name);
      button.addEventListener('click', () => {
        if (done === order.length) return;
        if (name !== order[done]) {
          done = 0;
          ctx.fail(`"${name}" was not next: the sequence starts over. ${progress()}`);
          return;
        }
        done += 1;
        ctx.say(done === order.length ? 'Sequence complete.' : progress());
        if (done === order.length) ctx.reveal();
      });
      grid.append(button);
    }
    ctx.area.append(grid);
    ctx.say(progress());
  },
});
