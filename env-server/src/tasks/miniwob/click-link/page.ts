import { taskPageHtml } from '../page-shell.js';

/**
 * A paragraph of seeded words, 3–5 of them links with distinct texts; the goal names one link.
 * Any other link loses; plain words do nothing. Links keep `href` so they are links to assistive
 * tech (and in the AXTree), and cancel navigation so the task page stays put.
 */
export const clickLinkHtml = taskPageHtml(
  'Click Link Task',
  String.raw`
gauntletTask.define({
  render(rng, area, end) {
    const { el, words } = gauntletTask;
    const count = rng.int(10, 16);
    const linkWords = rng.sample(words, rng.int(3, 5));
    const target = rng.pick(linkWords);
    const fillers = words.filter((word) => !linkWords.includes(word));
    const slots = rng.sample(Array.from({ length: count }, (_, i) => i), linkWords.length);
    const paragraph = el('p', { style: 'margin: ' + rng.int(0, 40) + 'px 4px 0;' });
    for (let i = 0; i < count; i++) {
      const slot = slots.indexOf(i);
      if (slot < 0) {
        paragraph.append(rng.pick(fillers) + ' ');
        continue;
      }
      const word = linkWords[slot];
      const link = el('a', { href: '#' }, [word]);
      link.addEventListener('click', (event) => {
        event.preventDefault();
        if (word === target) end(1, 'clicked "' + word + '"');
        else end(-1, 'clicked "' + word + '" instead of "' + target + '"');
      });
      paragraph.append(link, ' ');
    }
    area.append(paragraph);
    return 'Click on the link "' + target + '".';
  },
});
`,
);
