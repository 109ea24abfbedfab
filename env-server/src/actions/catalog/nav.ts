import { ActionError } from '../types.js';
import type { HandlerTable } from './handler.js';
import { num, str } from './read-params.js';

/**
 * An explicit navigation is what the agent asked for, so it waits for DOMContentLoaded longer
 * than the settle after a click would; the step deadline (ctx.deadline) still cuts it short.
 */
export const NAVIGATION_TIMEOUT_MS = 10_000;
const LOADED = { waitUntil: 'domcontentloaded', timeout: NAVIGATION_TIMEOUT_MS } as const;

/** History, URL and tab actions. go_back/go_forward without history do nothing, as in BrowserGym. */
export const NAV_HANDLERS: HandlerTable = {
  goto: {
    touchesPage: true,
    run: async (params, ctx) => {
      const url = str(params, 'url');
      ctx.checkNavigation(url);
      await ctx.deadline.race(ctx.activePage().goto(url, LOADED));
    },
  },
  go_back: {
    touchesPage: true,
    run: async (_params, ctx) => void (await ctx.deadline.race(ctx.activePage().goBack(LOADED))),
  },
  go_forward: {
    touchesPage: true,
    run: async (_params, ctx) => void (await ctx.deadline.race(ctx.activePage().goForward(LOADED))),
  },
  new_tab: {
    touchesPage: true,
    run: async (_params, ctx) => void (await ctx.deadline.race(ctx.newTab())),
  },
  tab_close: {
    touchesPage: true,
    run: (_params, ctx) => ctx.deadline.race(ctx.closeActiveTab()),
  },
  tab_focus: {
    touchesPage: true,
    run: (params, ctx) => {
      const index = num(params, 'index');
      const count = ctx.pages().length;
      // Python list indexing, as BrowserGym's `pages[index]`: -1 is the last tab.
      const resolved = index < 0 ? count + index : index;
      if (!Number.isInteger(index) || resolved < 0 || resolved >= count) {
        throw new ActionError('ValueError', `tab_focus: no tab at index ${index} (${count} tab${count === 1 ? '' : 's'} open)`);
      }
      return ctx.deadline.race(ctx.focusTab(resolved));
    },
  },
};
