import { ActionError } from '../types.js';
import { defineAction } from './define.js';
import { text } from './params.js';
import { num, str } from './read-params.js';

/**
 * An explicit navigation is what the agent asked for, so it waits for DOMContentLoaded longer
 * than the settle after a click would; the step deadline (ctx.deadline) still cuts it short.
 */
export const NAVIGATION_TIMEOUT_MS = 10_000;
const LOADED = { waitUntil: 'domcontentloaded', timeout: NAVIGATION_TIMEOUT_MS } as const;

/* History, URL and tab actions. go_back/go_forward without history do nothing, as in BrowserGym. */

export const goBack = defineAction({
  name: 'go_back',
  subsets: 'nav',
  params: [],
  description: "Go back in the active tab's history.",
  examples: ['go_back()'],
  touchesPage: true,
  run: async (_params, ctx) => void (await ctx.deadline.race(ctx.activePage().goBack(LOADED))),
});

export const goForward = defineAction({
  name: 'go_forward',
  subsets: 'nav',
  params: [],
  description: "Go forward in the active tab's history.",
  examples: ['go_forward()'],
  touchesPage: true,
  run: async (_params, ctx) => void (await ctx.deadline.race(ctx.activePage().goForward(LOADED))),
});

export const goto = defineAction({
  name: 'goto',
  subsets: 'nav',
  params: [text('url')],
  description: 'Navigate the active tab to a URL.',
  examples: ["goto('http://www.example.com')"],
  touchesPage: true,
  run: async (params, ctx) => {
    const url = str(params, 'url');
    ctx.checkNavigation(url);
    await ctx.deadline.race(ctx.activePage().goto(url, LOADED));
  },
});

export const newTab = defineAction({
  name: 'new_tab',
  subsets: 'tab',
  params: [],
  description: 'Open a new tab and make it the active one.',
  examples: ['new_tab()'],
  touchesPage: true,
  run: async (_params, ctx) => void (await ctx.deadline.race(ctx.newTab())),
});

export const tabClose = defineAction({
  name: 'tab_close',
  subsets: 'tab',
  params: [],
  description: 'Close the active tab.',
  examples: ['tab_close()'],
  touchesPage: true,
  run: (_params, ctx) => ctx.deadline.race(ctx.closeActiveTab()),
});

export const tabFocus = defineAction({
  name: 'tab_focus',
  subsets: 'tab',
  params: [{ name: 'index', kind: 'int' }],
  description: 'Make the tab at this index (0-based) the active one.',
  examples: ['tab_focus(2)'],
  touchesPage: true,
  run: (params, ctx) => {
    const index = num(params, 'index');
    const count = ctx.pages().length;
    // Python list indexing, as BrowserGym's `pages[index]`: -1 is the last tab.
    const resolved = index < 0 ? count + index : index;
    if (!Number.isInteger(index) || resolved < 0 || resolved >= count) {
      throw new ActionError(
        'ValueError',
        `tab_focus: no tab at index ${index} (${count} tab${count === 1 ? '' : 's'} open)`,
      );
    }
    return ctx.deadline.race(ctx.focusTab(resolved));
  },
});
