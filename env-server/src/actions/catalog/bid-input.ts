import type { ActionContext } from '../context.js';
import { actOnBid } from '../execute/act-on-bid.js';
import { NO_WAIT_AFTER } from './bid-pointer.js';
import type { HandlerTable } from './handler.js';
import { bool, str, strList } from './read-params.js';

/** select_option: Playwright matches each wanted string against option values and labels. */
function selectOptions(ctx: ActionContext, bid: string, wanted: string[]): Promise<void> {
  return actOnBid(ctx, {
    bid, action: 'select_option', forceRetry: true, wanted,
    run: (t, o) => t.selectOption(wanted, o),
  });
}

/** Value and key actions on a bid: fill, clear, select_option, press, focus. */
export const BID_INPUT_HANDLERS: HandlerTable = {
  fill: {
    touchesPage: true,
    run: (params, ctx) => {
      const bid = str(params, 'bid');
      const value = str(params, 'value');
      // Autocomplete widgets listen for key events, which fill does not send: fill all but the
      // last character, then type that one for real.
      const typeLast = bool(params, 'enable_autocomplete_menu', false) && value.length > 0;
      const head = typeLast ? value.slice(0, -1) : value;
      return actOnBid(ctx, {
        bid, action: 'fill', forceRetry: true,
        run: async (t, o) => {
          await t.fill(head, o);
          if (typeLast) await t.pressSequentially(value.slice(-1), { timeout: o.timeout });
        },
        // Models often fill a <select>; choosing the option is the only sensible reading.
        recover: async (d) => d.kind === 'select-for-fill' && (await selectOptions(ctx, bid, [value]), true),
      });
    },
  },
  clear: {
    touchesPage: true,
    run: (params, ctx) => actOnBid(ctx, { bid: str(params, 'bid'), action: 'clear', run: (t, o) => t.clear({ timeout: o.timeout }) }),
  },
  select_option: {
    touchesPage: true,
    run: (params, ctx) => selectOptions(ctx, str(params, 'bid'), strList(params, 'options')),
  },
  press: {
    touchesPage: true,
    run: (params, ctx) => {
      const key = str(params, 'key_comb');
      return actOnBid(ctx, { bid: str(params, 'bid'), action: 'press', run: (t, o) => t.press(key, { timeout: o.timeout, ...NO_WAIT_AFTER }) });
    },
  },
  focus: {
    touchesPage: true,
    run: (params, ctx) => actOnBid(ctx, { bid: str(params, 'bid'), action: 'focus', run: (t, o) => t.focus({ timeout: o.timeout }) }),
  },
};
