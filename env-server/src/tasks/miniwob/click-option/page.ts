import { taskPageHtml } from '../page-shell.js';

/** 3–6 labelled radio buttons, none chosen, and Submit; Submit wins only on the named option. */
export const clickOptionHtml = taskPageHtml(
  'Click Option Task',
  String.raw`
gauntletTask.define({
  render(rng, area, end) {
    const { el, words } = gauntletTask;
    // The shell's 120px input width is for text fields.
    const BOX = 'width: auto; margin: 1px 4px 1px 0;';
    const labels = rng.sample(words, rng.int(3, 6));
    const target = rng.pick(labels);
    const radios = labels.map((label) => el('input', { type: 'radio', name: 'option', value: label, style: BOX }));
    const list = el('div', { style: 'margin: ' + rng.int(0, 12) + 'px 0 0 ' + rng.int(2, 40) + 'px;' },
      labels.map((label, i) => el('div', {}, [el('label', {}, [radios[i], label])])));
    const submit = el('button', { style: 'margin: 4px 0 0 ' + rng.int(2, 40) + 'px;' }, ['Submit']);
    submit.addEventListener('click', () => {
      const chosen = labels.find((_, i) => radios[i].checked);
      if (chosen === target) end(1, 'submitted "' + chosen + '"');
      else end(-1, 'submitted ' + (chosen ? '"' + chosen + '"' : 'nothing') + ' instead of "' + target + '"');
    });
    area.append(list, submit);
    return 'Select "' + target + '" and click Submit.';
  },
});
`,
);
