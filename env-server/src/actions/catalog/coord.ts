import type { ActionContext } from '../context.js';
import { cssPoint } from '../execute/coordinates.js';
import { defineAction, type Params } from './define.js';
import { BUTTONS, button, coordinate, delta } from './params.js';
import { num, oneOf } from './read-params.js';

/**
 * The active page's mouse with every call raced against the step deadline (as an input command,
 * see Deadline.command), and the action's point in CSS pixels (see coordinates.ts).
 */
async function at(params: Params, ctx: ActionContext, xName = 'x', yName = 'y') {
  const page = ctx.activePage();
  const { x, y } = await ctx.deadline.race(cssPoint(page, num(params, xName), num(params, yName)));
  const { mouse } = page;
  const command = <T>(work: Promise<T>) => ctx.deadline.command(work);
  return {
    x,
    y,
    move: () => command(mouse.move(x, y)),
    down: (params?: Params) => command(mouse.down(params ? buttonOf(params) : undefined)),
    up: (params?: Params) => command(mouse.up(params ? buttonOf(params) : undefined)),
    click: (params: Params) => command(mouse.click(x, y, buttonOf(params))),
    dblclick: (params: Params) => command(mouse.dblclick(x, y, buttonOf(params))),
    wheel: (dx: number, dy: number) => command(mouse.wheel(dx, dy)),
  };
}

const buttonOf = (params: Params) => ({ button: oneOf(params, 'button', BUTTONS, 'left') });

/*
 * Mouse actions at coordinates, and the wheel. Playwright's mouse never waits, so these cannot
 * time out; argument ranges are declared with the parameters and checked by the binder (an
 * out-of-range wheel delta stops Chromium from taking input at all).
 */

// The wheel turns wherever the mouse is, like a user's: scroll_at moves it first.
export const scroll = defineAction({
  name: 'scroll',
  subsets: ['bid', 'coord'],
  params: [delta('delta_x'), delta('delta_y')],
  description: 'Scroll with the mouse wheel at the current mouse position, by pixel deltas.',
  examples: ['scroll(0, 200)', 'scroll(-50.2, -100.5)'],
  settlesOnFrame: true,
  touchesPage: true,
  run: (params, ctx) =>
    ctx.deadline.command(ctx.activePage().mouse.wheel(num(params, 'delta_x'), num(params, 'delta_y'))),
});

export const scrollAt = defineAction({
  name: 'scroll_at',
  subsets: 'coord',
  params: [coordinate('x'), coordinate('y'), delta('dx'), delta('dy')],
  description: 'Move the mouse to (x, y), then scroll by (dx, dy) pixels.',
  examples: ['scroll_at(640, 360, 0, 200)'],
  settlesOnFrame: true,
  touchesPage: true,
  run: async (params, ctx) => {
    const pointer = await at(params, ctx);
    await pointer.move();
    await pointer.wheel(num(params, 'dx'), num(params, 'dy'));
  },
});

export const mouseMove = defineAction({
  name: 'mouse_move',
  subsets: 'coord',
  params: [coordinate('x'), coordinate('y')],
  description: 'Move the mouse to a position.',
  examples: ['mouse_move(65.2, 158.5)'],
  touchesPage: true,
  run: async (params, ctx) => void (await (await at(params, ctx)).move()),
});

export const mouseDown = defineAction({
  name: 'mouse_down',
  subsets: 'coord',
  params: [coordinate('x'), coordinate('y'), button],
  description: 'Move the mouse to a position and press a button.',
  examples: ['mouse_down(140.2, 580.1)', "mouse_down(458, 254.5, button='middle')"],
  touchesPage: true,
  run: async (params, ctx) => {
    const pointer = await at(params, ctx);
    await pointer.move();
    await pointer.down(params);
  },
});

export const mouseUp = defineAction({
  name: 'mouse_up',
  subsets: 'coord',
  params: [coordinate('x'), coordinate('y'), button],
  description: 'Move the mouse to a position and release a button.',
  examples: ['mouse_up(250, 120)', "mouse_up(47, 252, 'right')"],
  touchesPage: true,
  run: async (params, ctx) => {
    const pointer = await at(params, ctx);
    await pointer.move();
    await pointer.up(params);
  },
});

export const mouseClick = defineAction({
  name: 'mouse_click',
  subsets: 'coord',
  params: [coordinate('x'), coordinate('y'), button],
  description: 'Click at a position.',
  examples: ['mouse_click(887.2, 68)', "mouse_click(56, 712.56, 'right')"],
  touchesPage: true,
  run: async (params, ctx) => (await at(params, ctx)).click(params),
});

export const mouseDblclick = defineAction({
  name: 'mouse_dblclick',
  subsets: 'coord',
  params: [coordinate('x'), coordinate('y'), button],
  description: 'Double-click at a position.',
  examples: ['mouse_dblclick(5, 236)', "mouse_dblclick(87.5, 354, 'right')"],
  touchesPage: true,
  run: async (params, ctx) => (await at(params, ctx)).dblclick(params),
});

export const mouseDragAndDrop = defineAction({
  name: 'mouse_drag_and_drop',
  subsets: 'coord',
  params: [coordinate('from_x'), coordinate('from_y'), coordinate('to_x'), coordinate('to_y')],
  description: 'Drag from one position and drop at another.',
  examples: ['mouse_drag_and_drop(10.7, 325, 235.6, 24.54)'],
  touchesPage: true,
  run: async (params, ctx) => {
    const from = await at(params, ctx, 'from_x', 'from_y');
    const to = await at(params, ctx, 'to_x', 'to_y');
    await from.move();
    await from.down();
    await to.move();
    await to.up();
  },
});
