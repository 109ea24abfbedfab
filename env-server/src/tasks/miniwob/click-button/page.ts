import { taskPageHtml } from '../page-shell.js';

/** 3–6 buttons with distinct seeded words; the goal names one, any other button loses. */
export const clickButtonHtml = taskPageHtml(
  'Click Button Task',
  String.raw`
gauntletTask.define({
  render(rng, area, end) {
    const { el, words } = gauntletTask;
    const labels = rng.sample(words, rng.int(3, 6));
    const target = rng.pick(labels);
    const box = el('div', { style: 'padding: ' + rng.int(0, 24) + 'px 0 0 ' + rng.int(0, 12) + 'px;' });
    for (const label of labels) {
      const margin = rng.int(2, 8) + 'px ' + rng.int(2, 8) + 'px';
      const button = el('button', { style: 'margin: ' + margin + ';' }, [label]);
      button.addEventListener('click', () =>
        label === target
          ? end(1, 'clicked "' + label + '"')
          : end(-1, 'clicked "' + label + '" instead of "' + target + '"'),
      );
      box.append(button);
    }
    area.append(box);
    return 'Click on the "' + target + '" button.';
  },
});
`,
);
