import type { ActionContext } from '../context.js';
import { actOnBid } from '../execute/act-on-bid.js';
import { NO_WAIT_AFTER } from './bid-pointer.js';
import { defineAction } from './define.js';
import { bid as bidParam, keys, text } from './params.js';
import { bool, str, strList } from './read-params.js';

/** select_option: Playwright matches each wanted string against option values and labels. */
function selectOptions(ctx: ActionContext, bid: string, wanted: string[]): Promise<void> {
  return actOnBid(ctx, {
    bid,
    action: 'select_option',
    forceRetry: true,
    wanted,
    run: (t, o) => t.selectOption(wanted, o),
  });
}

/* Value and key actions on a bid: fill, clear, select_option, press, focus. */

export const fill = defineAction({
  name: 'fill',
  subsets: 'bid',
  params: [bidParam(), text('value'), { name: 'enable_autocomplete_menu', kind: 'bool', default: false }],
  description: 'Set the value of a text field, replacing its content (True as 3rd argument opens autocomplete menus).',
  examples: [
    "fill('237', 'example value')",
    "fill('45', 'multi-line\\nexample')",
    "fill('a12', 'example with \"quotes\"')",
  ],
  touchesPage: true,
  run: (params, ctx) => {
    const bid = str(params, 'bid');
    const value = str(params, 'value');
    // Autocomplete widgets listen for key events, which fill does not send: fill all but the
    // last character, then type that one for real.
    const typeLast = bool(params, 'enable_autocomplete_menu', false) && value.length > 0;
    const head = typeLast ? value.slice(0, -1) : value;
    return actOnBid(ctx, {
      bid,
      action: 'fill',
      forceRetry: true,
      run: async (t, o) => {
        await t.fill(head, o);
        if (typeLast) await t.pressSequentially(value.slice(-1), { timeout: o.timeout });
      },
      // Models often fill a <select>; choosing the option is the only sensible reading.
      recover: async (d) => d.kind === 'select-for-fill' && (await selectOptions(ctx, bid, [value]), true),
    });
  },
});

export const selectOption = defineAction({
  name: 'select_option',
  subsets: 'bid',
  params: [bidParam(), { name: 'options', kind: 'string_or_list' }],
  description: 'Select one or several options of a <select> element, by value or label.',
  examples: ["select_option('a48', 'blue')", "select_option('c48', ['red', 'green', 'blue'])"],
  touchesPage: true,
  run: (params, ctx) => selectOptions(ctx, str(params, 'bid'), strList(params, 'options')),
});

export const press = defineAction({
  name: 'press',
  subsets: 'bid',
  params: [bidParam(), keys('key_comb')],
  description: 'Focus an element and press a key combination (Playwright key names).',
  examples: ["press('88', 'Backspace')", "press('a26', 'ControlOrMeta+a')", "press('a61', 'Meta+Shift+t')"],
  touchesPage: true,
  run: (params, ctx) => {
    const key = str(params, 'key_comb');
    return actOnBid(ctx, {
      bid: str(params, 'bid'),
      action: 'press',
      run: (t, o) => t.press(key, { timeout: o.timeout, ...NO_WAIT_AFTER }),
    });
  },
});

export const focus = defineAction({
  name: 'focus',
  subsets: 'bid',
  params: [bidParam()],
  description: 'Focus an element.',
  examples: ["focus('b455')"],
  touchesPage: true,
  run: (params, ctx) =>
    actOnBid(ctx, { bid: str(params, 'bid'), action: 'focus', run: (t, o) => t.focus({ timeout: o.timeout }) }),
});

export const clear = defineAction({
  name: 'clear',
  subsets: 'bid',
  params: [bidParam()],
  description: 'Clear the content of a form field.',
  examples: ["clear('996')"],
  touchesPage: true,
  run: (params, ctx) =>
    actOnBid(ctx, { bid: str(params, 'bid'), action: 'clear', run: (t, o) => t.clear({ timeout: o.timeout }) }),
});
