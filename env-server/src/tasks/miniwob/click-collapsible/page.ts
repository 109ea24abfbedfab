import { taskPageHtml } from '../page-shell.js';

/**
 * A collapsed section whose header toggles it; the Submit button exists only while it is
 * expanded, and clicking it wins (MiniWoB's task has no losing move).
 */
export const clickCollapsibleHtml = taskPageHtml(
  'Click Collapsible Task',
  String.raw`
gauntletTask.define({
  render(rng, area, end) {
    const { el, words } = gauntletTask;
    const title = 'Section: ' + rng.pick(words);
    const text = rng.sample(words, rng.int(5, 12)).join(' ');
    const header = el('button', { 'aria-expanded': 'false', 'aria-controls': 'section',
      style: 'display: block; width: 150px; text-align: left;' }, [title]);
    const section = el('div', { id: 'section', style: 'padding: 3px;' });
    header.addEventListener('click', () => {
      const expanded = header.getAttribute('aria-expanded') === 'true';
      header.setAttribute('aria-expanded', String(!expanded));
      if (expanded) return section.replaceChildren();
      const submit = el('button', {}, ['Submit']);
      submit.addEventListener('click', () => end(1, 'expanded the section and clicked Submit'));
      section.replaceChildren(el('p', { style: 'margin: 0 0 4px;' }, [text]), submit);
    });
    area.append(el('div', { style: 'margin: ' + rng.int(0, 50) + 'px 0 0 ' + rng.int(0, 6) + 'px;' }, [header, section]));
    return 'Expand the section below and click Submit.';
  },
});
`,
);
