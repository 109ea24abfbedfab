import { taskPageHtml } from '../page-shell.js';

/**
 * A file tree (folders collapsed) drawn as a flat ARIA tree: clicking a folder opens or closes
 * it. Clicking the named item (folder or file) wins; clicking another file loses. Names are
 * distinct; the target is never at the top level, so at least one folder must be opened.
 */
export const navigateTreeHtml = taskPageHtml(
  'Navigate Tree Task',
  String.raw`
gauntletTask.define({
  render(rng, area, end) {
    const { el, names } = gauntletTask;
    const pool = rng.shuffle(names.map((n) => n[0].toUpperCase() + n.slice(1)));
    const all = [];
    function grow(depth, count) {
      return Array.from({ length: count }, () => {
        // Two folder levels at most: 3 + 9 + 27 names fit in the name list.
        const folder = depth < 2 && (depth === 0 || rng.int(0, 2) === 0);
        const node = { name: pool.pop(), depth, open: false, children: [] };
        if (folder) node.children = grow(depth + 1, rng.int(1, 3));
        all.push(node);
        return node;
      });
    }
    const roots = grow(0, rng.int(2, 3));
    const target = rng.pick(all.filter((node) => node.depth > 0));
    const tree = el('div', { role: 'tree', 'aria-label': 'Files',
      style: 'height: 156px; overflow-y: auto; margin: 2px 0 0 ' + rng.int(0, 20) + 'px;' });
    function rows(nodes) {
      return nodes.flatMap((node) => {
        const folder = node.children.length > 0;
        const attrs = { role: 'treeitem', 'aria-level': node.depth + 1,
          style: 'padding-left: ' + (node.depth * 12) + 'px; cursor: pointer;' };
        if (folder) attrs['aria-expanded'] = String(node.open);
        const marker = el('span', { 'aria-hidden': 'true' }, [folder ? (node.open ? '▾ ' : '▸ ') : '']);
        const row = el('div', attrs, [marker, node.name]);
        row.addEventListener('click', () => {
          if (node === target) return end(1, 'clicked "' + node.name + '"');
          if (!folder) return end(-1, 'clicked "' + node.name + '" instead of "' + target.name + '"');
          node.open = !node.open;
          draw();
        });
        return [row, ...(node.open ? rows(node.children) : [])];
      });
    }
    function draw() {
      tree.replaceChildren(...rows(roots));
    }
    draw();
    area.append(tree);
    return 'Navigate through the file tree. Find and click on the folder or file named "' + target.name + '".';
  },
});
`,
);
