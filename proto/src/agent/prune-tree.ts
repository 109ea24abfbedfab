/**
 * The `pruned` observation format: BrowserGym's AXTree text cut down to what a small model needs
 * to act — interactive elements with their bids and state, and the text near them — in the same
 * line syntax (`[bid] role 'name', prop=value`), so a model trained on one format still reads the
 * other. A model from scratch learns to ground a goal's words in a page far sooner when a page is
 * 40 lines of elements than 200 lines of containers, URLs and `selected=False`.
 */

/** Roles a policy acts on; a line of one of these is always kept (with its bid). */
const INTERACTIVE = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'checkbox',
  'radio',
  'combobox',
  'listbox',
  'option',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'treeitem',
  'slider',
  'spinbutton',
  'switch',
  'gridcell',
  'columnheader',
  'rowheader',
  'cell',
  'img',
  'canvas',
  'video',
  'audio',
  'Iframe',
]);

/** Properties that describe what a page looks like to someone acting on it; the rest is dropped. */
const KEPT_PROPERTIES = new Set([
  'checked',
  'selected',
  'expanded',
  'pressed',
  'disabled',
  'focused',
  'required',
  'valuemin',
  'valuemax',
  'valuetext',
]);

export interface PruneOptions {
  /** The goal: a StaticText line that only repeats it is dropped (MiniWoB prints its goal on the page). */
  goal?: string;
  /** Most lines kept (default 80); the rest are cut and counted. */
  maxLines?: number;
}

interface TreeLine {
  depth: number;
  bid: string | undefined;
  role: string;
  /** The name as it was printed (a Python string literal), and its text. */
  nameLiteral: string;
  name: string;
  /** ` value=…` and `, key=value` items, each as printed. */
  value: string | undefined;
  items: { key: string; text: string }[];
}

/**
 * Prunes BrowserGym AXTree text: drops the page's root line, nameless containers (their children
 * move up), non-interactive nameless nodes, options of a closed drop-down (select_option names
 * the option by its text), a StaticText that repeats the goal, and every property but state ones
 * (`selected=False` too). Depth is re-counted over the lines kept. Lines it cannot read are kept
 * as they are, so no page is ever emptied by the format.
 */
export function pruneTree(tree: string, options: PruneOptions = {}): string {
  const maxLines = options.maxLines ?? 80;
  const goal = options.goal?.trim();
  const kept: string[] = [];
  /** For each printed depth of the source, the depth it has in the output (or -1: dropped, children move up). */
  const ancestors: { depth: number; outDepth: number; closedSelect: boolean }[] = [];
  for (const raw of tree.split('\n')) {
    if (!raw.trim()) continue;
    const line = parseLine(raw);
    if (!line) {
      kept.push(raw);
      continue;
    }
    while (ancestors.length && ancestors.at(-1)!.depth >= line.depth) ancestors.pop();
    const parent = [...ancestors].reverse().find((a) => a.outDepth >= 0);
    const outDepth = parent ? parent.outDepth + 1 : 0;
    const inClosedSelect = ancestors.some((a) => a.closedSelect);
    const drop =
      line.role === 'RootWebArea' ||
      inClosedSelect ||
      (line.role === 'StaticText' && goal !== undefined && line.name.trim() === goal) ||
      (!INTERACTIVE.has(line.role) && line.name.trim() === '' && line.value === undefined);
    ancestors.push({
      depth: line.depth,
      outDepth: drop ? -1 : outDepth,
      closedSelect: line.role === 'combobox' && line.items.some((i) => i.text === 'expanded=False'),
    });
    if (!drop) kept.push('\t'.repeat(outDepth) + printLine(line));
  }
  if (kept.length <= maxLines) return kept.join('\n');
  const cut = kept.length - maxLines;
  return [...kept.slice(0, maxLines), `… (${cut} more line${cut === 1 ? '' : 's'} not shown)`].join('\n');
}

function printLine(line: TreeLine): string {
  let out = `${line.bid === undefined ? '' : `[${line.bid}] `}${line.role} ${line.nameLiteral}`;
  if (line.value !== undefined) out += ` value=${line.value}`;
  const items = line.items.filter((i) => KEPT_PROPERTIES.has(i.key) && i.text !== 'selected=False');
  return items.length ? `${out}, ${items.map((i) => i.text).join(', ')}` : out;
}

const HEAD = /^(\t*)(?:\[([^\]\s]+)\] )?([A-Za-z][\w-]*)/;

/** One line of BrowserGym's format; undefined when it does not read as one. */
function parseLine(raw: string): TreeLine | undefined {
  const head = HEAD.exec(raw);
  if (!head) return undefined;
  let rest = raw.slice(head[0].length);
  // A nameless `generic` is printed without its name; every other node has a quoted one.
  const name = rest.startsWith(' ') ? readQuoted(rest.slice(1)) : '';
  if (name === undefined) return undefined;
  rest = rest.slice(name ? name.length + 1 : 0);
  let value: string | undefined;
  if (rest.startsWith(' value=')) {
    const item = readItem(rest.slice(' value='.length));
    value = item;
    rest = rest.slice(' value='.length + item.length);
  }
  const items: TreeLine['items'] = [];
  while (rest.startsWith(', ')) {
    const text = readItem(rest.slice(2));
    if (!text) return undefined;
    items.push({ key: text.split('=')[0]!, text });
    rest = rest.slice(2 + text.length);
  }
  if (rest !== '') return undefined;
  return {
    depth: head[1]!.length,
    bid: head[2],
    role: head[3]!,
    nameLiteral: name || "''",
    name: name ? unquote(name) : '',
    value,
    items,
  };
}

/** A Python string literal at the start of `text` ('…' or "…", backslash escapes), as written. */
function readQuoted(text: string): string | undefined {
  const q = text[0];
  if (q !== "'" && q !== '"') return undefined;
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === q) return text.slice(0, i + 1);
  }
  return undefined;
}

/** One item up to the next top-level `, ` (quoted parts may hold commas). */
function readItem(text: string): string {
  let i = 0;
  while (i < text.length && !text.startsWith(', ', i)) {
    const quoted = text[i] === "'" || text[i] === '"' ? readQuoted(text.slice(i)) : undefined;
    i += quoted ? quoted.length : 1;
  }
  return text.slice(0, i);
}

function unquote(literal: string): string {
  return literal.slice(1, -1).replace(/\\(.)/g, '$1');
}
