import type { Mouse } from 'playwright-core';
import { actOnBid } from '../execute/act-on-bid.js';
import type { Point } from '../execute/ready-check.js';
import type { HandlerTable, Params } from './handler.js';
import { listOf, oneOf, str } from './read-params.js';

const BUTTONS = ['left', 'middle', 'right'] as const;
const MODIFIERS = ['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift'] as const;

function clickOptions(params: Params) {
  return { button: oneOf(params, 'button', BUTTONS, 'left'), modifiers: listOf(params, 'modifiers', MODIFIERS), ...NO_WAIT_AFTER };
}

/**
 * Playwright would wait for a navigation the click starts under the 500 ms action timeout: a
 * link to a slower server then reports a timeout although it was clicked, and the force retry
 * clicks again. The settle after the action waits for the navigation instead, on its own budget.
 */
export const NO_WAIT_AFTER = { noWaitAfter: true } as const;

/** Pointer actions on a bid: click, dblclick, hover, drag_and_drop. */
export const BID_POINTER_HANDLERS: HandlerTable = {
  click: {
    touchesPage: true,
    run: (params, ctx) => {
      const options = clickOptions(params);
      const fast = options.modifiers.length === 0 ? (mouse: Mouse, at: Point) => mouse.click(at.x, at.y, { button: options.button }) : undefined;
      return actOnBid(ctx, { bid: str(params, 'bid'), action: 'click', forceRetry: true, fast, run: (t, o) => t.click({ ...options, ...o }) });
    },
  },
  dblclick: {
    touchesPage: true,
    run: (params, ctx) => {
      const options = clickOptions(params);
      const fast = options.modifiers.length === 0 ? (mouse: Mouse, at: Point) => mouse.dblclick(at.x, at.y, { button: options.button }) : undefined;
      return actOnBid(ctx, { bid: str(params, 'bid'), action: 'dblclick', forceRetry: true, fast, run: (t, o) => t.dblclick({ ...options, ...o }) });
    },
  },
  hover: {
    touchesPage: true,
    run: (params, ctx) => actOnBid(ctx, { bid: str(params, 'bid'), action: 'hover', forceRetry: true, fast: (mouse, at) => mouse.move(at.x, at.y), run: (t, o) => t.hover(o) }),
  },
  drag_and_drop: {
    touchesPage: true,
    // Like a user (and BrowserGym): press over the source, move over the target, release. Real
    // mouse events drive both mouse-listener widgets and, in Chromium, native HTML5 drag and drop.
    run: async (params, ctx) => {
      const from = str(params, 'from_bid');
      const to = str(params, 'to_bid');
      const mouse = ctx.activePage().mouse;
      await actOnBid(ctx, { bid: from, action: 'drag_and_drop', run: (t, o) => t.hover(o) });
      await ctx.deadline.command(mouse.down());
      try {
        await actOnBid(ctx, { bid: to, action: 'drag_and_drop', run: (t, o) => t.hover(o) });
      } finally {
        // Never leave the button held: the next action would start in a drag. The release is sent
        // even past the deadline; only the wait for it is cut short.
        await ctx.deadline.command(mouse.up()).catch((error: unknown) => {
          if (!ctx.deadline.isReason(error)) throw error;
        });
      }
    },
  },
};
