import { taskPageHtml } from '../page-shell.js';

/**
 * A drop-down list of 4–10 seeded words and a Submit button; Submit wins only when the named
 * word is selected. The list starts on its first entry, which may already be the answer.
 */
export const chooseListHtml = taskPageHtml(
  'Choose List Task',
  String.raw`
gauntletTask.define({
  render(rng, area, end) {
    const { el, words } = gauntletTask;
    const items = rng.sample(words, rng.int(4, 10)).map((w) => w[0].toUpperCase() + w.slice(1));
    const target = rng.pick(items);
    const select = el('select', { id: 'options', 'aria-label': 'Options' },
      items.map((item) => el('option', { value: item }, [item])));
    const submit = el('button', {}, ['Submit']);
    submit.addEventListener('click', () =>
      select.value === target
        ? end(1, 'submitted "' + select.value + '"')
        : end(-1, 'submitted "' + select.value + '" instead of "' + target + '"'),
    );
    const box = el('div', { style: 'margin: ' + rng.int(4, 80) + 'px 0 0 ' + rng.int(2, 50) + 'px;' }, [
      el('div', {}, [select]),
      el('div', { style: 'margin-top: ' + rng.int(4, 20) + 'px;' }, [submit]),
    ]);
    area.append(box);
    return 'Select "' + target + '" from the list and click Submit.';
  },
});
`,
);
