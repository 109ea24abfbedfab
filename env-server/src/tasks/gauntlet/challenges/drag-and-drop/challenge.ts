import { defineChallenge } from '../../challenge.js';
import { WORDS } from '../words.js';

interface Params {
  zone: string;
  items: string[];
  wanted: string[];
}

/**
 * Drag the named items into the drop zone. Pointer events (press, move, release), so the
 * BrowserGym drag_and_drop action and raw mouse actions both work; unwanted drops count as mistakes.
 */
export const dragAndDrop = defineChallenge<Params>({
  type: 'drag_and_drop',
  title: 'Drag and drop',
  generate(rng) {
    const items = rng.sample(WORDS, rng.int(4, 6) + 1);
    const zone = items.pop()!;
    return { zone, items, wanted: rng.sample(items, rng.int(2, 3)) };
  },
  render: (ctx) => {
    const { zone, items, wanted } = ctx.params;
    ctx.instruct(
      `Drag these items into the "${zone}" drop zone: ${wanted.map((w) => `"${w}"`).join(', ')}. The other items are not wanted.`,
    );
    const source = ctx.el('ul', { 'aria-label': 'Items', class: 'items' });
    const dropped = ctx.el('ul', { 'aria-label': `In ${zone}`, class: 'items' });
    const target = ctx.el(
      'section',
      { 'aria-label': `${zone} drop zone`, class: 'zone' },
      ctx.el('p', {}, `${zone}: drop here`),
      dropped,
    );
    let dragging: HTMLElement | null = null;
    const progress = () => `${dropped.children.length} of ${wanted.length} wanted items are in "${zone}".`;
    for (const name of items) {
      const item = ctx.el('li', { 'aria-label': name, class: 'item' }, name);
      item.addEventListener('mousedown', (event) => {
        event.preventDefault();
        dragging = item;
        item.classList.add('dragging');
      });
      source.append(item);
    }
    ctx.listen(document, 'mouseup', (event) => {
      const item = dragging;
      dragging = null;
      if (!item) return;
      item.classList.remove('dragging');
      const { clientX, clientY } = event as MouseEvent;
      if (!document.elementFromPoint(clientX, clientY)?.closest('.zone'))
        return ctx.say(`"${item.textContent}" was dropped outside "${zone}". ${progress()}`);
      if (!wanted.includes(item.textContent ?? ''))
        return ctx.fail(`"${item.textContent}" is not wanted in "${zone}". ${progress()}`);
      dropped.append(item);
      ctx.say(progress());
      if (dropped.children.length === wanted.length) ctx.reveal();
    });
    ctx.area.append(source, target);
    ctx.say(progress());
  },
  css: `.puzzle .items { display: flex; gap: 10px; list-style: none; padding: 0; min-height: 40px; }
  .puzzle .item { padding: 8px 12px; border: 1px solid #88a; border-radius: 4px; background: #eef; cursor: grab; user-select: none; }
  .puzzle .item.dragging { opacity: 0.6; }
  .puzzle .zone { margin-top: 16px; padding: 12px; min-height: 90px; border: 2px dashed #4a8; background: #f2fff6; }`,
});
