import { taskPageHtml } from '../page-shell.js';

/**
 * A text field and a Submit button; Submit ends the episode, winning only on the exact text
 * (MiniWoB compares exactly, so a trailing space or wrong case loses).
 */
export const enterTextHtml = taskPageHtml(
  'Enter Text Task',
  String.raw`
gauntletTask.define({
  render(rng, area, end) {
    const { el, words } = gauntletTask;
    const word = rng.pick(words);
    const text = rng.int(0, 2) === 0 ? word[0].toUpperCase() + word.slice(1) : word;
    const input = el('input', { type: 'text', id: 'tt' });
    const submit = el('button', { id: 'subbtn' }, ['Submit']);
    submit.addEventListener('click', () => {
      const typed = input.value;
      if (typed === text) end(1, 'submitted "' + typed + '"');
      else end(-1, 'submitted "' + typed + '" instead of "' + text + '"');
    });
    const form = el('div', { style: 'margin: ' + rng.int(4, 70) + 'px 0 0 ' + rng.int(2, 34) + 'px;' }, [
      el('div', {}, [input]),
      el('div', { style: 'margin-top: ' + rng.int(4, 16) + 'px;' }, [submit]),
    ]);
    area.append(form);
    return 'Enter "' + text + '" into the text field and press Submit.';
  },
});
`,
);
