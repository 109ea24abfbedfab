import { taskPageHtml } from '../page-shell.js';

/**
 * A dialog over a paragraph, with a "×" close button and 0–2 other buttons. Closing it with
 * "×" wins; its other buttons lose (they close it too, as real dialogs do).
 */
export const clickDialogHtml = taskPageHtml(
  'Click Dialog Task',
  String.raw`
gauntletTask.define({
  render(rng, area, end) {
    const { el, words } = gauntletTask;
    const title = rng.pick(words);
    const others = rng.sample(['OK', 'Cancel'], rng.int(0, 2));
    area.append(el('p', { style: 'margin: 4px; color: #555;' }, [rng.sample(words, rng.int(20, 30)).join(' ')]));
    const close = el('button', { title: 'Close', style: 'float: right; padding: 0 3px;' }, ['×']);
    const dialog = el('div', { role: 'dialog', 'aria-labelledby': 'dialog-title',
      style: 'position: absolute; left: ' + rng.int(0, 25) + 'px; top: ' + rng.int(0, 60) + 'px; width: 130px;' +
        ' background: #fff; border: 1px solid #333; padding: 3px;' }, [
      el('div', { style: 'background: #ddd; padding: 2px; margin-bottom: 3px;' }, [close, el('span', { id: 'dialog-title' }, [title])]),
      el('p', { style: 'margin: 0 0 4px;' }, [rng.sample(words, rng.int(3, 8)).join(' ')]),
    ]);
    close.addEventListener('click', () => {
      dialog.remove();
      end(1, 'closed the dialog with ×');
    });
    for (const label of others) {
      const button = el('button', { style: 'margin-right: 4px;' }, [label]);
      button.addEventListener('click', () => {
        dialog.remove();
        end(-1, 'clicked ' + label + ' instead of ×');
      });
      dialog.append(button);
    }
    area.append(dialog);
    return 'Close the dialog box by clicking the "×".';
  },
});
`,
);
