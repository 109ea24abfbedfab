import type { ActionContext } from '../context.js';
import { cssPoint } from '../execute/coordinates.js';
import type { HandlerTable, Params } from './handler.js';
import { num, oneOf } from './read-params.js';

const BUTTONS = ['left', 'middle', 'right'] as const;

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
    x, y,
    move: () => command(mouse.move(x, y)),
    down: (params?: Params) => command(mouse.down(params ? button(params) : undefined)),
    up: (params?: Params) => command(mouse.up(params ? button(params) : undefined)),
    click: (params: Params) => command(mouse.click(x, y, button(params))),
    dblclick: (params: Params) => command(mouse.dblclick(x, y, button(params))),
    wheel: (dx: number, dy: number) => command(mouse.wheel(dx, dy)),
  };
}

const button = (params: Params) => ({ button: oneOf(params, 'button', BUTTONS, 'left') });

/**
 * Mouse actions at coordinates, and the wheel. Playwright's mouse never waits, so these cannot
 * time out; argument ranges are checked by the binder (an out-of-range wheel delta stops Chromium
 * from taking input at all).
 */
export const COORD_HANDLERS: HandlerTable = {
  // The wheel turns wherever the mouse is, like a user's: scroll_at moves it first.
  scroll: {
    settlesOnFrame: true,
    touchesPage: true,
    run: (params, ctx) => ctx.deadline.command(ctx.activePage().mouse.wheel(num(params, 'delta_x'), num(params, 'delta_y'))),
  },
  scroll_at: {
    settlesOnFrame: true,
    touchesPage: true,
    run: async (params, ctx) => {
      const pointer = await at(params, ctx);
      await pointer.move();
      await pointer.wheel(num(params, 'dx'), num(params, 'dy'));
    },
  },
  mouse_move: {
    touchesPage: true,
    run: async (params, ctx) => void (await (await at(params, ctx)).move()),
  },
  mouse_down: {
    touchesPage: true,
    run: async (params, ctx) => {
      const pointer = await at(params, ctx);
      await pointer.move();
      await pointer.down(params);
    },
  },
  mouse_up: {
    touchesPage: true,
    run: async (params, ctx) => {
      const pointer = await at(params, ctx);
      await pointer.move();
      await pointer.up(params);
    },
  },
  mouse_click: {
    touchesPage: true,
    run: async (params, ctx) => (await at(params, ctx)).click(params),
  },
  mouse_dblclick: {
    touchesPage: true,
    run: async (params, ctx) => (await at(params, ctx)).dblclick(params),
  },
  mouse_drag_and_drop: {
    touchesPage: true,
    run: async (params, ctx) => {
      const from = await at(params, ctx, 'from_x', 'from_y');
      const to = await at(params, ctx, 'to_x', 'to_y');
      await from.move();
      await from.down();
      await to.move();
      await to.up();
    },
  },
};
