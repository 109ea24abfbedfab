import { taskPageHtml } from '../page-shell.js';

/**
 * Like enter-text with a random string of 2–6 letters and digits (no dictionary word to lean
 * on); Submit wins only on the exact text.
 */
export const enterTextDynamicHtml = taskPageHtml(
  'Enter Text Dynamic Task',
  String.raw`
gauntletTask.define({
  render(rng, area, end) {
    const { el } = gauntletTask;
    const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    const text = Array.from({ length: rng.int(2, 6) }, () => rng.pick(alphabet)).join('');
    const input = el('input', { type: 'text', id: 'tt' });
    const submit = el('button', { id: 'subbtn' }, ['Submit']);
    submit.addEventListener('click', () => {
      if (input.value === text) end(1, 'submitted "' + input.value + '"');
      else end(-1, 'submitted "' + input.value + '" instead of "' + text + '"');
    });
    area.append(el('div', { style: 'margin: ' + rng.int(4, 70) + 'px 0 0 ' + rng.int(2, 34) + 'px;' }, [
      el('div', {}, [input]),
      el('div', { style: 'margin-top: ' + rng.int(4, 16) + 'px;' }, [submit]),
    ]));
    return 'Type "' + text + '" into the text field and press Submit.';
  },
});
`,
);
