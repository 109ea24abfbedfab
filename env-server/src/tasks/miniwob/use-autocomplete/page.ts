import { taskPageHtml } from '../page-shell.js';

/**
 * A combobox that lists the countries starting with what was typed (ArrowUp/ArrowDown move the
 * active option, Enter or a click picks it) and Submit. Submit wins when the field holds a
 * listed country that starts (and, when asked, ends) with the goal's letters; anything else loses.
 */
export const useAutocompleteHtml = taskPageHtml(
  'Use Autocomplete Task',
  String.raw`
gauntletTask.define({
  render(rng, area, end) {
    const { el } = gauntletTask;
    const countries = ('Albania Algeria Andorra Angola Argentina Armenia Austria Bahamas Bahrain Belarus Belgium ' +
      'Belize Benin Bhutan Bolivia Botswana Brazil Bulgaria Burundi Cambodia Cameroon Canada Chad Chile China ' +
      'Colombia Croatia Cuba Cyprus Denmark Ecuador Egypt Eritrea Estonia Ethiopia Fiji Finland France Gabon ' +
      'Gambia Georgia Germany Ghana Greece Grenada Guatemala Guinea Guyana Haiti Honduras Hungary Iceland India ' +
      'Indonesia Ireland Israel Italy Jamaica Japan Jordan Kenya Kuwait Latvia Lebanon Lesotho Liberia Libya ' +
      'Lithuania Madagascar Malawi Malaysia Maldives Mali Malta Mexico Monaco Mongolia Morocco Namibia Nepal ' +
      'Nicaragua Niger Nigeria Norway Pakistan Panama Paraguay Peru Poland Portugal Romania Rwanda Senegal ' +
      'Serbia Slovakia Slovenia Somalia Spain Sudan Sweden Tanzania Thailand Tonga Tunisia Turkey Uganda ' +
      'Ukraine Uruguay Vietnam Zambia Zimbabwe').split(' ');
    const target = rng.pick(countries);
    const prefix = target.slice(0, rng.int(2, 3));
    const suffix = rng.int(0, 1) === 1 ? target.slice(-rng.int(1, 3)) : '';
    const fits = (text) => countries.includes(text) && text.toLowerCase().startsWith(prefix.toLowerCase()) &&
      text.endsWith(suffix);

    const input = el('input', { type: 'text', id: 'tags', role: 'combobox', 'aria-autocomplete': 'list',
      'aria-expanded': 'false', 'aria-controls': 'choices', autocomplete: 'off' });
    const menu = el('ul', { id: 'choices', role: 'listbox', 'aria-label': 'Suggestions',
      style: 'position: absolute; z-index: 1; margin: 0; padding: 0; list-style: none; background: #fff;' +
        ' border: 1px solid #999; width: 118px;' });
    let shown = [];
    let active = -1;
    function draw() {
      input.setAttribute('aria-expanded', String(shown.length > 0));
      if (active >= 0) input.setAttribute('aria-activedescendant', 'choice-' + active);
      else input.removeAttribute('aria-activedescendant');
      menu.replaceChildren(...shown.map((text, i) => {
        const item = el('li', { role: 'option', id: 'choice-' + i, 'aria-selected': String(i === active),
          style: 'padding: 0 2px;' + (i === active ? ' background: #39f; color: #fff;' : '') }, [text]);
        item.addEventListener('mousedown', (event) => event.preventDefault());
        item.addEventListener('click', () => pick(text));
        return item;
      }));
      if (shown.length === 0) menu.remove();
      else if (!menu.isConnected) input.after(menu);
    }
    function pick(text) {
      input.value = text;
      shown = [];
      active = -1;
      draw();
    }
    input.addEventListener('input', () => {
      const typed = input.value.toLowerCase();
      shown = typed ? countries.filter((c) => c.toLowerCase().startsWith(typed)).slice(0, 8) : [];
      active = -1;
      draw();
    });
    input.addEventListener('keydown', (event) => {
      if (shown.length === 0) return;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        const step = event.key === 'ArrowDown' ? 1 : -1;
        active = (active + step + shown.length + 1) % (shown.length + 1);
        if (active === shown.length) active = -1;
        event.preventDefault();
        draw();
      } else if (event.key === 'Enter' && active >= 0) {
        event.preventDefault();
        pick(shown[active]);
      } else if (event.key === 'Escape') {
        shown = [];
        active = -1;
        draw();
      }
    });
    const submit = el('button', {}, ['Submit']);
    submit.addEventListener('click', () => {
      if (fits(input.value)) end(1, 'submitted "' + input.value + '"');
      else end(-1, 'submitted "' + input.value + '", which does not fit');
    });
    area.append(el('div', { style: 'margin: ' + rng.int(0, 12) + 'px 0 0 ' + rng.int(2, 34) + 'px;' }, [
      el('label', { for: 'tags' }, ['Tags: ']),
      el('div', { style: 'position: relative;' }, [input]),
      el('div', { style: 'margin-top: ' + rng.int(4, 10) + 'px;' }, [submit]),
    ]));
    const ends = suffix ? ' and ends with "' + suffix + '"' : '';
    return 'Enter an item that starts with "' + prefix + '"' + ends + ' and press Submit.';
  },
});
`,
);
