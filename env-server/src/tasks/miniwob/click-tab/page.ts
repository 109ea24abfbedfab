import { taskPageHtml } from '../page-shell.js';

/**
 * 2–4 tabs ("Tab #1"…) over panels of seeded words, the first one open. Clicking the named tab
 * wins, clicking another loses (MiniWoB's rule); either way the clicked tab opens.
 */
export const clickTabHtml = taskPageHtml(
  'Click Tab Task',
  String.raw`
gauntletTask.define({
  render(rng, area, end) {
    const { el, words } = gauntletTask;
    const count = rng.int(2, 4);
    const target = rng.int(1, count);
    const texts = Array.from({ length: count }, () => rng.sample(words, rng.int(6, 14)).join(' '));
    const list = el('div', { role: 'tablist', style: 'display: flex; gap: 2px; margin: ' + rng.int(0, 30) + 'px 2px 0;' });
    const panel = el('div', { role: 'tabpanel', id: 'panel', style: 'border: 1px solid #999; padding: 3px; margin: 0 2px;' });
    const tabs = texts.map((_, i) => {
      const tab = el('button', { role: 'tab', 'aria-controls': 'panel', 'aria-selected': 'false' }, ['Tab #' + (i + 1)]);
      tab.addEventListener('click', () => {
        open(i);
        if (i + 1 === target) end(1, 'clicked Tab #' + (i + 1));
        else end(-1, 'clicked Tab #' + (i + 1) + ' instead of Tab #' + target);
      });
      return tab;
    });
    function open(index) {
      tabs.forEach((tab, i) => tab.setAttribute('aria-selected', String(i === index)));
      panel.textContent = texts[index];
    }
    list.append(...tabs);
    open(0);
    area.append(list, panel);
    return 'Click on Tab #' + target + '.';
  },
});
`,
);
