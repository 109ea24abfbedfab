import { taskPageHtml } from '../page-shell.js';

/**
 * 1–3 text fields; focusing the one the goal counts to wins, focusing another loses. Any way of
 * focusing counts (focus action, click, Tab key), as in MiniWoB.
 */
export const focusTextHtml = taskPageHtml(
  'Focus Text Task',
  String.raw`
gauntletTask.define({
  render(rng, area, end) {
    const { el } = gauntletTask;
    const ordinals = ['1st', '2nd', '3rd'];
    const count = rng.int(1, 3);
    const target = rng.int(0, count - 1);
    const box = el('div', { style: 'margin: ' + rng.int(0, 40) + 'px 0 0 ' + rng.int(2, 34) + 'px;' });
    for (let i = 0; i < count; i++) {
      const input = el('input', { type: 'text', style: 'display: block; margin-bottom: ' + rng.int(4, 14) + 'px;' });
      input.addEventListener('focus', () =>
        i === target
          ? end(1, 'focused the ' + ordinals[i] + ' textbox')
          : end(-1, 'focused the ' + ordinals[i] + ' textbox instead of the ' + ordinals[target]),
      );
      box.append(input);
    }
    area.append(box);
    return count === 1 ? 'Focus into the textbox.' : 'Focus into the ' + ordinals[target] + ' input textbox.';
  },
});
`,
);
