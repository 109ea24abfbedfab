import { CODE_ALPHABET } from '../../codes.js';
import { defineChallenge } from '../../challenge.js';
import { WORDS } from '../words.js';

interface Entry {
  name: string;
  where: 'cookie' | 'local storage';
  /** Empty for the real entry: its value is the step's code, written by the page. */
  value: string;
}

interface Params {
  key: string;
  entries: Entry[];
}

/**
 * The code is written to a cookie or localStorage entry; the page's own Settings › Stored data
 * view reads the real storage and shows a value only when asked. Nineteen decoy entries hold decoy
 * codes, and showing one locks the puzzle: the entry must be picked by reading its name.
 */
export const cookieStorage = defineChallenge<Params>({
  type: 'cookie_storage',
  title: 'Stored data',
  generate(rng) {
    const names = rng.sample(WORDS, 20).map((w) => `${w.toLowerCase()}_${rng.pick(['token', 'key', 'pass', 'code'])}`);
    const where = () => rng.pick(['cookie', 'local storage'] as const);
    const entries = names.map((name, i) => ({
      name,
      where: where(),
      value: i === 0 ? '' : rng.string(CODE_ALPHABET, 6),
    }));
    return { key: names[0]!, entries: rng.shuffle(entries) };
  },
  render: (ctx) => {
    const { key, entries } = ctx.params;
    const real = entries.find((e) => e.name === key)!;
    ctx.instruct(
      `The code is stored in this site's ${real.where === 'cookie' ? 'cookies' : 'local storage'} under the name "${key}". Open "Settings", then "Stored data", and show that entry's value. Showing any other entry locks the puzzle.`,
    );
    for (const entry of entries) {
      const value = entry.value || ctx.code();
      if (entry.where === 'cookie') document.cookie = `${entry.name}=${value}; path=/`;
      else localStorage.setItem(entry.name, value);
    }
    ctx.onCleanup(() => {
      for (const entry of entries) {
        document.cookie = `${entry.name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
        localStorage.removeItem(entry.name);
      }
    });
    const read = (entry: Entry) =>
      (entry.where === 'cookie'
        ? document.cookie
            .split('; ')
            .find((c) => c.startsWith(`${entry.name}=`))
            ?.slice(entry.name.length + 1)
        : localStorage.getItem(entry.name)) ?? '(missing)';
    const settings = ctx.el('button', { type: 'button' }, 'Settings');
    const panel = ctx.el('section', { 'aria-label': 'Settings' });
    const storedData = ctx.el('button', { type: 'button' }, 'Stored data');
    storedData.addEventListener('click', () => {
      const list = ctx.el('ul', { 'aria-label': 'Stored entries' });
      for (const entry of entries) {
        const shown = ctx.el('span', {}, '••••••');
        const show = ctx.el('button', { type: 'button' }, `Show ${entry.name}`);
        show.addEventListener('click', () => {
          if (entry.name !== key) return ctx.lock(`"${entry.name}" is not the entry asked for.`, () => panel.remove());
          shown.textContent = read(entry);
        });
        list.append(ctx.el('li', { 'aria-label': entry.name }, `${entry.name} (${entry.where}): `, shown, ' ', show));
      }
      panel.querySelector('ul')?.remove();
      panel.append(list);
    });
    settings.addEventListener('click', () => {
      if (!panel.isConnected) ctx.area.append(panel);
      panel.replaceChildren(
        ctx.el('h4', {}, 'Settings'),
        ctx.el('p', {}, 'Theme: light. Language: English.'),
        storedData,
      );
    });
    ctx.area.append(settings);
  },
});
