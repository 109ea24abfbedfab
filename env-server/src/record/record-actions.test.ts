import { describe, expect, it } from 'vitest';
import { resolveSubsets } from '../actions/catalog/catalog.js';
import { bindCall } from '../actions/language/bind.js';
import { parseActions } from '../actions/language/parse.js';
import { actionFor } from './record-actions.js';
import type { PageInput } from './record-in-page.js';

/** What the env's own parser makes of an action string: the name and its bound parameters. */
function parsed(action: string) {
  const all = resolveSubsets(['chat', 'infeas', 'bid', 'coord', 'nav', 'tab']);
  const [call] = parseActions(action, { strict: true, multiAction: false });
  const bound = bindCall(call!, all);
  return { name: bound.name, params: bound.params };
}

describe('a person’s input as a BrowserGym action', () => {
  it.each([
    [{ kind: 'click', bid: '12' }, "click('12')", { bid: '12' }],
    [{ kind: 'dblclick', bid: 'a3' }, "dblclick('a3')", { bid: 'a3' }],
    [{ kind: 'fill', bid: '7', value: `it's "quoted"\nline` }, undefined, { bid: '7', value: `it's "quoted"\nline` }],
    [{ kind: 'select', bid: '9', values: ['Silk'] }, "select_option('9', 'Silk')", { options: 'Silk' }],
    [{ kind: 'select', bid: '9', values: ['a', 'b'] }, "select_option('9', ['a', 'b'])", { options: ['a', 'b'] }],
    [{ kind: 'press', bid: '4', key: 'Enter' }, "press('4', 'Enter')", { key_comb: 'Enter' }],
    [{ kind: 'press', bid: null, key: 'Escape' }, "keyboard_press('Escape')", { key: 'Escape' }],
    [{ kind: 'scroll', bid: null, dx: 0, dy: 240.4 }, 'scroll(0, 240)', { delta_x: 0, delta_y: 240 }],
    [{ kind: 'drag', bid: '5', to: '8' }, "drag_and_drop('5', '8')", { from_bid: '5', to_bid: '8' }],
  ] as const)('%o → %s, which the env parses back', (input, text, params) => {
    const action = actionFor(input as PageInput);
    if (text) expect(action).toBe(text);
    expect(parsed(action!).params).toMatchObject(params);
  });

  it.each([
    { kind: 'click', bid: null },
    { kind: 'fill', bid: '' },
    { kind: 'select', bid: '3', values: [] },
    { kind: 'press', bid: '3', key: '' },
    { kind: 'scroll', bid: null, dx: 0, dy: 0 },
    { kind: 'drag', bid: '5', to: '5' },
    { kind: 'drag', bid: '5', to: null },
    { kind: 'evaluate', bid: '1' },
  ])('%o is no action (nothing to act on, or not an input we record)', (input) => {
    expect(actionFor(input as never)).toBeUndefined();
  });
});
