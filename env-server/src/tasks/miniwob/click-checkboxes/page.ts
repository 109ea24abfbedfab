import { taskPageHtml } from '../page-shell.js';

/**
 * 3–6 labelled checkboxes, none checked, and Submit. The goal names 0–n of them; Submit wins
 * only when exactly those are checked (as in MiniWoB, "nothing" is a valid answer).
 */
export const clickCheckboxesHtml = taskPageHtml(
  'Click Checkboxes Task',
  String.raw`
gauntletTask.define({
  render(rng, area, end) {
    const { el, words } = gauntletTask;
    // The shell's 120px input width is for text fields.
    const BOX = 'width: auto; margin: 1px 4px 1px 0;';
    const labels = rng.sample(words, rng.int(3, 6));
    const wanted = rng.sample(labels, rng.int(0, labels.length)).sort((a, b) => labels.indexOf(a) - labels.indexOf(b));
    const boxes = labels.map((label) => el('input', { type: 'checkbox', id: 'ch-' + label, style: BOX }));
    const list = el('div', { style: 'margin: ' + rng.int(0, 12) + 'px 0 0 ' + rng.int(2, 40) + 'px;' },
      labels.map((label, i) => el('div', {}, [el('label', {}, [boxes[i], label])])));
    const submit = el('button', { style: 'margin: 4px 0 0 ' + rng.int(2, 40) + 'px;' }, ['Submit']);
    submit.addEventListener('click', () => {
      const checked = labels.filter((_, i) => boxes[i].checked);
      const ok = checked.length === wanted.length && checked.every((label) => wanted.includes(label));
      const said = checked.length ? checked.join(', ') : 'nothing';
      if (ok) end(1, 'submitted ' + said);
      else end(-1, 'submitted ' + said + ' instead of ' + (wanted.length ? wanted.join(', ') : 'nothing'));
    });
    area.append(list, submit);
    if (wanted.length === 0) return 'Select nothing and click Submit.';
    return 'Select ' + wanted.map((w) => '"' + w + '"').join(', ') + ' and click Submit.';
  },
});
`,
);
