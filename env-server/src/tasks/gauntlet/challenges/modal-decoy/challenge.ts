import { CODE_ALPHABET } from '../../codes.js';
import { defineChallenge } from '../../challenge.js';

interface Popup {
  title: string;
  decoyCode: string;
  /** The popup's buttons, all drawn as "×": `labels` in this popup's own order. */
  order: string[];
  left: number;
  top: number;
}

interface Params {
  popups: Popup[];
  target: string;
  /** The one label that really closes a popup; the others lock the puzzle. */
  closes: string;
}

const TITLES = ['Newsletter', 'Security check', 'Prize draw', 'Cookie notice', 'Survey', 'Update ready', 'Flash sale'];
const LABELS = ['Hide', 'Dismiss', 'Close', 'Done', 'Skip', 'Later', 'Got it'];

/**
 * Overlapping popups, each with four "×" buttons whose names are all plausible ways to close it;
 * the instructions say which name really closes, the others lock the puzzle. Each popup prints
 * a decoy code. Dismissing the named popup properly reveals the code; popups later in the page
 * sit on top and must be closed first (any press on a covered popup locks), topmost first.
 */
export const modalDecoy = defineChallenge<Params>({
  type: 'modal_decoy',
  title: 'Popup decoys',
  generate(rng) {
    const titles = rng.sample(TITLES, rng.int(3, 4));
    const labels = rng.sample(LABELS, 4);
    const popups = titles.map((title, i) => ({
      title,
      decoyCode: rng.string(CODE_ALPHABET, 6),
      order: rng.shuffle(labels),
      left: 20 + i * rng.int(40, 80),
      top: 10 + i * rng.int(20, 40),
    }));
    return { popups, target: rng.pick(titles), closes: rng.pick(labels) };
  },
  render: (ctx) => {
    const { popups, target, closes } = ctx.params;
    ctx.instruct(
      `Several popups are open. Dismiss the "${target}" popup. In these popups only the "×" button named "${closes}" closes; the others open offers and lock the puzzle. Popups listed later sit on top of earlier ones, and a popup can be closed only once no popup covers it: pressing anything on a covered popup locks the puzzle. Codes printed inside popups are decoys: the real code appears once "${target}" is dismissed.`,
    );
    const open = () => {
      ctx.area.querySelectorAll('.popup').forEach((p) => p.remove());
      for (const popup of popups) {
        const dialog = ctx.el('div', {
          role: 'dialog',
          'aria-label': popup.title,
          class: 'popup',
          style: `left: ${popup.left}px; top: ${popup.top}px;`,
        });
        const bar = ctx.el('div', { class: 'bar' });
        for (const label of popup.order) {
          const x = ctx.el('button', { type: 'button', class: 'x', 'aria-label': label }, '×');
          x.addEventListener('click', () => {
            const above = [...ctx.area.querySelectorAll('.popup')].slice(
              [...ctx.area.querySelectorAll('.popup')].indexOf(dialog) + 1,
            );
            if (above.length)
              return ctx.lock(
                `"${popup.title}" is covered by "${above[0]!.getAttribute('aria-label')}"; the popups are back.`,
                open,
              );
            if (label !== closes)
              return ctx.lock(`"${label}" on "${popup.title}" opened an offer; the popups are back.`, open);
            dialog.remove();
            if (popup.title !== target) return ctx.say(`"${popup.title}" dismissed.`);
            ctx.say(`"${popup.title}" dismissed properly.`);
            ctx.reveal();
          });
          bar.append(x);
        }
        dialog.append(bar, ctx.el('h4', {}, popup.title), ctx.el('p', {}, `Your code: ${popup.decoyCode}`));
        ctx.area.append(dialog);
      }
    };
    open();
  },
  css: `.puzzle:has(.popup) { min-height: 320px; }
  .puzzle .popup { position: absolute; width: 300px; padding: 10px; background: #fff; border: 2px solid #555; box-shadow: 0 4px 14px #0005; }
  .puzzle .popup .bar { display: flex; justify-content: flex-end; gap: 4px; }
  .puzzle .popup .x { width: 28px; }`,
});
