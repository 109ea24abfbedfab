import type { Mouse } from 'playwright-core';
import { actOnBid } from '../execute/act-on-bid.js';
import type { Point } from '../execute/ready-check.js';
import { defineAction, type Params } from './define.js';
import { BUTTONS, MODIFIERS, bid, button, modifiers } from './params.js';
import { listOf, oneOf, str } from './read-params.js';

function clickOptions(params: Params) {
  return {
    button: oneOf(params, 'button', BUTTONS, 'left'),
    modifiers: listOf(params, 'modifiers', MODIFIERS),
    ...NO_WAIT_AFTER,
  };
}

/**
 * Playwright would wait for a navigation the click starts under the 500 ms action timeout: a
 * link to a slower server then reports a timeout although it was clicked, and the force retry
 * clicks again. The settle after the action waits for the navigation instead, on its own budget.
 */
export const NO_WAIT_AFTER = { noWaitAfter: true } as const;

/* Pointer actions on a bid: click, dblclick, hover, drag_and_drop. */

export const click = defineAction({
  name: 'click',
  subsets: 'bid',
  params: [bid(), button, modifiers],
  description: 'Click an element.',
  examples: ["click('a51')", "click('b22', button='right')", "click('48', button='middle', modifiers=['Shift'])"],
  touchesPage: true,
  run: (params, ctx) => {
    const options = clickOptions(params);
    const fast =
      options.modifiers.length === 0
        ? (mouse: Mouse, at: Point) => mouse.click(at.x, at.y, { button: options.button })
        : undefined;
    return actOnBid(ctx, {
      bid: str(params, 'bid'),
      action: 'click',
      forceRetry: true,
      fast,
      run: (t, o) => t.click({ ...options, ...o }),
    });
  },
});

export const dblclick = defineAction({
  name: 'dblclick',
  subsets: 'bid',
  params: [bid(), button, modifiers],
  description: 'Double-click an element.',
  examples: ["dblclick('12')", "dblclick('ca42', button='right')", "dblclick('178', modifiers=['ControlOrMeta'])"],
  touchesPage: true,
  run: (params, ctx) => {
    const options = clickOptions(params);
    const fast =
      options.modifiers.length === 0
        ? (mouse: Mouse, at: Point) => mouse.dblclick(at.x, at.y, { button: options.button })
        : undefined;
    return actOnBid(ctx, {
      bid: str(params, 'bid'),
      action: 'dblclick',
      forceRetry: true,
      fast,
      run: (t, o) => t.dblclick({ ...options, ...o }),
    });
  },
});

export const hover = defineAction({
  name: 'hover',
  subsets: 'bid',
  params: [bid()],
  description: 'Move the mouse over an element.',
  examples: ["hover('b8')"],
  touchesPage: true,
  run: (params, ctx) =>
    actOnBid(ctx, {
      bid: str(params, 'bid'),
      action: 'hover',
      forceRetry: true,
      fast: (mouse, at) => mouse.move(at.x, at.y),
      run: (t, o) => t.hover(o),
    }),
});

export const dragAndDrop = defineAction({
  name: 'drag_and_drop',
  subsets: 'bid',
  params: [bid('from_bid'), bid('to_bid')],
  description: 'Drag an element and drop it on another.',
  examples: ["drag_and_drop('56', '498')"],
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
});
