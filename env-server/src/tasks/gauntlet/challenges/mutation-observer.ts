import { defineChallenge } from '../challenge.js';

interface Params {
  gapMs: number;
  windowMs: number;
}

/** The code is inserted into the flash box for a short window, removed, and shown again each cycle. */
export const mutationObserver = defineChallenge<Params>({
  type: 'mutation_observer',
  title: 'Flashing code',
  generate: (rng) => ({ gapMs: rng.round(250, 400, 50), windowMs: rng.round(150, 250, 25) }),
  render: (ctx) => {
    const { gapMs, windowMs } = ctx.params;
    ctx.instruct(
      `The code flashes in the box below for ${windowMs} ms, then disappears for ${gapMs} ms, over and over. Catch it while it is shown.`,
    );
    const box = ctx.el('section', { 'aria-label': 'Flash box', class: 'flash' }, ctx.el('p', {}, 'Watch this box.'));
    const cycle = () => {
      ctx.later(gapMs, () => {
        const shown = ctx.el('output', {}, ctx.code());
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
