import { taskPageHtml } from '../page-shell.js';

/** One "Click Me!" button at a seeded spot; clicking anything else does nothing (as in MiniWoB). */
export const clickTestHtml = taskPageHtml(
  'Click Test Task',
  String.raw`
gauntletTask.define({
  render(rng, area, end) {
    const { el } = gauntletTask;
    const style = 'position: absolute; left: ' + rng.int(0, 95) + 'px; top: ' + rng.int(0, 135) + 'px;';
    const button = el('button', { style }, ['Click Me!']);
    button.addEventListener('click', () => end(1, 'clicked the button'));
    area.append(button);
    return 'Click the button.';
  },
});
`,
);
