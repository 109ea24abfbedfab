import { CODE_ALPHABET } from '../challenge-types.js';
import { defineChallenge } from '../challenge.js';

interface Popup {
  title: string;
  decoyCode: string;
  /** What the fake "×" really does (its accessible name says so; the screen shows only "×"). */
  fake: string;
  left: number;
  top: number;
}

interface Params {
  popups: Popup[];
  target: string;
}

const TITLES = ['Newsletter', 'Security check', 'Prize draw', 'Cookie notice', 'Survey', 'Update ready', 'Flash sale'];
const FAKES = ['Subscribe', 'Accept all', 'Claim prize', 'Open offer', 'Start survey', 'Install now'];

/**
 * Overlapping popups, each with a real close button and a fake one that looks the same on
 * screen, and each printing a decoy code. Dismissing the named popup properly reveals the code;
 * popups later in the page sit on top and must be closed first to reach one beneath.
 */
export const modalDecoy = defineChallenge<Params>({
  type: 'modal_decoy',
  title: 'Popup decoys',
  generate(rng) {
    const titles = rng.sample(TITLES, rng.int(3, 4));
    const popups = titles.map((title, i) => ({
      title,
      decoyCode: rng.string(CODE_ALPHABET, 6),
      fake: rng.pick(FAKES),
      left: 20 + i * rng.int(40, 80),
      top: 10 + i * rng.int(20, 40),
    }));
    return { popups, target: rng.pick(titles) };
  },
  render: (ctx) => {
    const { popups, target } = ctx.params;
    ctx.instruct(
      `Several popups are open. Dismiss the "${target}" popup with its real close button; the fake "×" buttons do something else. Popups listed later sit on top of earlier ones. Codes printed inside popups are decoys: the real code appears once "${target}" is dismissed.`,
    );
    for (const popup of popups) {
      const close = ctx.el('button', { type: 'button', class: 'x', 'aria-label': `Close ${popup.title}` }, '×');
      const fake = ctx.el(
        'button',
        { type: 'button', class: 'x', 'aria-label': `${popup.fake} (${popup.title})` },
        '×',
      );
      const dialog = ctx.el(
        'div',
        {
          role: 'dialog',
          'aria-label': popup.title,
          class: 'popup',
          style: `left: ${popup.left}px; top: ${popup.top}px;`,
        },
        ctx.el('div', { class: 'bar' }, fake, close),
        ctx.el('h4', {}, popup.title),
        ctx.el('p', {}, `Your code: ${popup.decoyCode}`),
      );
      close.addEventListener('click', () => {
        dialog.remove();
        if (popup.title !== target) return ctx.say(`"${popup.title}" dismissed.`);
        ctx.say(`"${popup.title}" dismissed properly.`);
        ctx.reveal();
      });
      fake.addEventListener('click', () =>
        ctx.fail(`That "×" was "${popup.fake}", not a close button; "${popup.title}" is still open.`),
      );
      ctx.area.append(dialog);
    }
  },
  css: `.puzzle.modal_decoy { min-height: 320px; }
  .puzzle .popup { position: absolute; width: 300px; padding: 10px; background: #fff; border: 2px solid #555; box-shadow: 0 4px 14px #0005; }
  .puzzle .popup .bar { display: flex; justify-content: flex-end; gap: 4px; }
  .puzzle .popup .x { width: 28px; }`,
});
