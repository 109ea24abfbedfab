import { pyString } from './action-text.js';
import type { AxNode } from './axtree-lines.js';

/** A node the agent can address. */
export type Actionable = AxNode & { bid: string };

/** BrowserGym action text, exactly as an agent would write it: what every oracle returns. */
export const act = {
  click: (node: Actionable) => `click(${pyString(node.bid)})`,
  hover: (node: Actionable) => `hover(${pyString(node.bid)})`,
  focus: (node: Actionable) => `focus(${pyString(node.bid)})`,
  clear: (node: Actionable) => `clear(${pyString(node.bid)})`,
  /** `openMenu` types the last character, so autocomplete menus open (fill's third argument). */
  fill: (node: Actionable, value: string, openMenu = false) =>
    `fill(${pyString(node.bid)}, ${pyString(value)}${openMenu ? ', True' : ''})`,
  select: (node: Actionable, option: string) => `select_option(${pyString(node.bid)}, ${pyString(option)})`,
  press: (node: Actionable, key: string) => `press(${pyString(node.bid)}, ${pyString(key)})`,
  dragAndDrop: (from: Actionable, to: Actionable) => `drag_and_drop(${pyString(from.bid)}, ${pyString(to.bid)})`,
  noop: (ms: number) => `noop(${Math.max(0, Math.round(ms))})`,
  scroll: (dx: number, dy: number) => `scroll(${dx}, ${dy})`,
  mouseMove: (x: number, y: number) => `mouse_move(${x}, ${y})`,
  mouseDown: (x: number, y: number) => `mouse_down(${x}, ${y})`,
  mouseUp: (x: number, y: number) => `mouse_up(${x}, ${y})`,
  /** Several calls in one action string (BrowserGym's multi-action mode). */
  chain: (...calls: string[]) => calls.join('\n'),
};
