import type { ActionContext } from '../context.js';
import { cssPoint } from './coordinates.js';
import type { HandlerTable, Params } from './handler.js';
import { num, oneOf } from './params.js';

const BUTTONS = ['left', 'middle', 'right'] as const;

/** The active page's mouse and the action's point in CSS pixels (see coordinates.ts). */
async function at(params: Params, ctx: ActionContext, xName = 'x', yName = 'y') {
  const page = ctx.activePage();
  const point = await cssPoint(page, num(params, xName), num(params, yName));
  return { mouse: page.mouse, ...point };
}

const button = (params: Params) => ({ button: oneOf(params, 'button', BUTTONS, 'left') });

/** Mouse actions at coordinates, and the wheel. Playwright's mouse never waits, so these cannot time out. */
export const COORD_HANDLERS: HandlerTable = {
  // The wheel turns wherever the mouse is, like a user's: scroll_at moves it first.
  scroll: {
    settlesOnFrame: true,
    touchesPage: true,
    run: (params, ctx) => ctx.activePage().mouse.wheel(num(params, 'delta_x'), num(params, 'delta_y')),
  },
  scroll_at: {
    settlesOnFrame: true,
    touchesPage: true,
    run: async (params, ctx) => {
      const { mouse, x, y } = await at(params, ctx);
      await mouse.move(x, y);
      await mouse.wheel(num(params, 'dx'), num(params, 'dy'));
    },
  },
  mouse_move: {
    touchesPage: true,
    run: async (params, ctx) => {
      const { mouse, x, y } = await at(params, ctx);
      await mouse.move(x, y);
    },
  },
  mouse_down: {
    touchesPage: true,
    run: async (params, ctx) => {
      const { mouse, x, y } = await at(params, ctx);
      await mouse.move(x, y);
      await mouse.down(button(params));
    },
  },
  mouse_up: {
    touchesPage: true,
    run: async (params, ctx) => {
      const { mouse, x, y } = await at(params, ctx);
      await mouse.move(x, y);
      await mouse.up(button(params));
    },
  },
  mouse_click: {
    touchesPage: true,
    run: async (params, ctx) => {
      const { mouse, x, y } = await at(params, ctx);
      await mouse.click(x, y, button(params));
    },
  },
  mouse_dblclick: {
    touchesPage: true,
    run: async (params, ctx) => {
      const { mouse, x, y } = await at(params, ctx);
      await mouse.dblclick(x, y, button(params));
    },
  },
  mouse_drag_and_drop: {
    touchesPage: true,
    run: async (params, ctx) => {
      const from = await at(params, ctx, 'from_x', 'from_y');
      const to = await at(params, ctx, 'to_x', 'to_y');
      await from.mouse.move(from.x, from.y);
      await from.mouse.down();
      await to.mouse.move(to.x, to.y);
      await to.mouse.up();
    },
  },
};
