import type { Literal } from '../python/literal.js';
import type { ElementProperties } from '@gauntlet/proto';
import type { AXTreeNode } from './axtree-fetch.js';
import { pyFixed, pyRepr, pyStr } from '../python/repr.js';

/** BrowserGym's optional per-node extras, printed before the node's own properties. */
export interface AXTreeExtras {
  /** `box="(x0,y0,x1,y1)"` in top-level page coordinates. */
  boundingBox?: boolean;
  /** `center="(cx,cy)"`. */
  center?: boolean;
  clickable?: boolean;
  /** `visible` when at least half the element is in the viewport. */
  visible?: boolean;
  /** `som` when the element would get a set-of-marks label. */
  som?: boolean;
  /** Decimals in box/center coordinates (BrowserGym's default: 0). */
  coordDecimals?: number;
}

const SKIPPED_ROLES = new Set(['LineBreak', 'InlineTextBox']);
const SKIPPED_PROPERTIES = new Set(['editable', 'readonly', 'level', 'settable', 'multiline', 'invalid', 'focusable']);
const BARE_FLAGS = new Set(['required', 'focused', 'atomic']);
/** What Python's str.strip() strips (its whitespace includes the \x1c-\x1f separators). */
const PY_SPACE_CLASS =
  '[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]+';
const PY_SPACE = new RegExp(`^${PY_SPACE_CLASS}|${PY_SPACE_CLASS}$`, 'g');

/**
 * BrowserGym's `flatten_axtree_to_str` with its default filters: depth-first, one tab per printed
 * ancestor, `[bid] role 'name'`, then ` value=...`, then `, extra`/`, prop=value` items. Skipped
 * nodes (children still printed one level up): LineBreak, nodes without a name, `generic` without
 * properties, StaticText whose text its parent's name already contains.
 */
export function formatAXTree(
  root: AXTreeNode,
  properties: Record<string, ElementProperties> = {},
  extras: AXTreeExtras = {},
): string {
  const lines: string[] = [];
  const visit = (node: AXTreeNode, depth: number, parentName: string): void => {
    let skip = SKIPPED_ROLES.has(node.role) || node.name === undefined;
    const name = skip ? '' : (node.name as string);
    if (!skip) {
      const items: string[] = [];
      for (const [key, value] of node.properties) {
        if (SKIPPED_PROPERTIES.has(key)) continue;
        if (!BARE_FLAGS.has(key)) items.push(`${key}=${pyRepr(value as Literal)}`);
        else if (pyTruthy(value)) items.push(key);
      }
      if (node.role === 'generic' && items.length === 0) skip = true;
      if (node.role === 'StaticText') skip ||= parentName.includes(name);
      else items.unshift(...extraItems(node.bid === undefined ? undefined : properties[node.bid], extras));
      if (!skip) lines.push('\t'.repeat(depth) + nodeLine(node, name, items));
    }
    for (const child of node.children) visit(child, skip ? depth : depth + 1, name);
  };
  visit(root, 0, '');
  return lines.join('\n');
}

function nodeLine(node: AXTreeNode, name: string, items: string[]): string {
  let line = node.role === 'generic' && !name ? 'generic' : `${node.role} ${pyStr(name.replace(PY_SPACE, ''))}`;
  if (node.bid !== undefined) line = `[${node.bid}] ${line}`;
  if (node.value !== undefined) line += ` value=${pyRepr(node.value as Literal)}`;
  return items.length ? `${line}, ${items.join(', ')}` : line;
}

function extraItems(props: ElementProperties | undefined, extras: AXTreeExtras): string[] {
  if (!props) return [];
  const items: string[] = [];
  const coords = (values: number[]) => `"(${values.map((v) => pyFixed(v, extras.coordDecimals ?? 0)).join(',')})"`;
  const box = props.bbox;
  if (extras.boundingBox && box) items.push(`box=${coords([box[0], box[1], box[0] + box[2], box[1] + box[3]])}`);
  if (extras.center && box) items.push(`center=${coords([box[0] + box[2] / 2, box[1] + box[3] / 2])}`);
  if (extras.clickable && props.clickable) items.push('clickable');
  if (extras.visible && props.visibility >= 0.5) items.push('visible');
  if (extras.som && props.set_of_marks) items.push('som');
  return items;
}

function pyTruthy(value: unknown): boolean {
  return value !== false && value !== 0 && value !== '' && value !== null && value !== undefined;
}
