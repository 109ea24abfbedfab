import { taskPageHtml } from '../page-shell.js';

/**
 * A search box (Enter or the Search button runs it) over 4–9 results, 3 per page with page
 * links. Clicking the N-th result of the goal's query wins; any other result, or any result of
 * another query, loses.
 */
export const searchEngineHtml = taskPageHtml(
  'Search Engine Task',
  String.raw`
gauntletTask.define({
  render(rng, area, end) {
    const { el, words, names } = gauntletTask;
    const cap = (w) => w[0].toUpperCase() + w.slice(1);
    const query = cap(rng.pick(names));
    const results = rng.sample(words, rng.int(4, 9)).map((word) => ({
      title: cap(word) + ' ' + rng.pick(words),
      url: 'https://' + word + '.example',
      text: rng.sample(words, 4).join(' '),
    }));
    const wanted = rng.int(1, results.length);
    const ordinal = (n) => n + (n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th');
    const perPage = 3;

    const input = el('input', { type: 'text', id: 'search-text', 'aria-label': 'Search', style: 'width: 100px;' });
    const button = el('button', { id: 'search' }, ['Search']);
    const list = el('div', { id: 'page-content' });
    let searched = '';
    function showPage(page) {
      const pages = Math.ceil(results.length / perPage);
      const items = results.slice(page * perPage, page * perPage + perPage).map((result, i) => {
        const index = page * perPage + i + 1;
        const link = el('a', { href: '#' }, [result.title]);
        link.addEventListener('click', (event) => {
          event.preventDefault();
          if (searched !== query) end(-1, 'clicked a result for "' + searched + '" instead of "' + query + '"');
          else if (index === wanted) end(1, 'clicked the ' + ordinal(index) + ' result');
          else end(-1, 'clicked the ' + ordinal(index) + ' result instead of the ' + ordinal(wanted));
        });
        return el('div', { style: 'margin-top: 3px;' }, [
          link,
          el('div', { style: 'font-size: 9px; color: #080;' }, [result.url]),
          el('div', { style: 'font-size: 9px;' }, [result.text]),
        ]);
      });
      const nav = el('div', { role: 'navigation', 'aria-label': 'Pages', style: 'margin-top: 3px;' });
      for (let p = 0; p < pages; p++) {
        if (p === page) {
          nav.append(el('strong', { 'aria-current': 'page' }, [String(p + 1)]), ' ');
          continue;
        }
        const link = el('a', { href: '#' }, [String(p + 1)]);
        link.addEventListener('click', (event) => {
          event.preventDefault();
          showPage(p);
        });
        nav.append(link, ' ');
      }
      list.replaceChildren(...items, nav);
    }
    function search() {
      searched = input.value;
      if (searched) showPage(0);
      else list.replaceChildren();
    }
    button.addEventListener('click', search);
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') search();
    });
    area.append(el('div', { style: 'margin: 2px 0 0 ' + rng.int(2, 12) + 'px;' }, [input, ' ', button, list]));
    return 'Use the textbox to enter "' + query + '" and press "Search", then find and click the ' +
      ordinal(wanted) + ' search result.';
  },
});
`,
);
