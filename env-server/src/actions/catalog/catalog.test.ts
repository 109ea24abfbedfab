import { describe, expect, it } from 'vitest';
import { bindCall } from '../language/bind.js';
import { ACTIONS, findAction, formatSignature } from './catalog.js';
import { PRESETS, SUBSETS, resolveSubsets } from './subsets.js';
import { parseActions } from '../language/parse.js';
import * as bidInput from './bid-input.js';
import * as bidPointer from './bid-pointer.js';
import * as chat from './chat.js';
import * as coord from './coord.js';
import * as keyboard from './keyboard.js';
import * as nav from './nav.js';
import * as upload from './upload.js';

describe('the catalog holds every BrowserGym action with its signature', () => {
  const expected: [string, string][] = [
    ['noop(wait_ms=1000)', 'noop'],
    ['send_msg_to_user(text)', 'chat'],
    ['report_infeasible(reason)', 'infeas'],
    ["click(bid, button='left', modifiers=[])", 'bid'],
    ["dblclick(bid, button='left', modifiers=[])", 'bid'],
    ['hover(bid)', 'bid'],
    ['fill(bid, value, enable_autocomplete_menu=False)', 'bid'],
    ['select_option(bid, options)', 'bid'],
    ['press(bid, key_comb)', 'bid'],
    ['focus(bid)', 'bid'],
    ['clear(bid)', 'bid'],
    ['drag_and_drop(from_bid, to_bid)', 'bid'],
    ['upload_file(bid, file)', 'bid'],
    ['scroll(delta_x, delta_y)', 'bid,coord'],
    ['scroll_at(x, y, dx, dy)', 'coord'],
    ['mouse_move(x, y)', 'coord'],
    ["mouse_down(x, y, button='left')", 'coord'],
    ["mouse_up(x, y, button='left')", 'coord'],
    ["mouse_click(x, y, button='left')", 'coord'],
    ["mouse_dblclick(x, y, button='left')", 'coord'],
    ['mouse_drag_and_drop(from_x, from_y, to_x, to_y)', 'coord'],
    ['mouse_upload_file(x, y, file)', 'coord'],
    ['keyboard_down(key)', 'coord'],
    ['keyboard_up(key)', 'coord'],
    ['keyboard_press(key)', 'coord'],
    ['keyboard_type(text)', 'coord'],
    ['keyboard_insert_text(text)', 'coord'],
    ['go_back()', 'nav'],
    ['go_forward()', 'nav'],
    ['goto(url)', 'nav'],
    ['new_tab()', 'tab'],
    ['tab_close()', 'tab'],
    ['tab_focus(index)', 'tab'],
  ];

  it('lists exactly these actions, in this order, in these subsets', () => {
    expect(ACTIONS.map((spec) => [formatSignature(spec), spec.subsets.join(',')])).toEqual(expected);
  });

  it('has unique names and a one-line description for each action', () => {
    expect(new Set(ACTIONS.map((spec) => spec.name)).size).toBe(ACTIONS.length);
    for (const spec of ACTIONS) expect(spec.description).toMatch(/^[A-Z][^\n]{10,120}\.$/);
  });

  it('gives every catalog action the implementation the executor runs', () => {
    const missing = ACTIONS.filter(
      (action) => typeof action.run !== 'function' || typeof action.touchesPage !== 'boolean',
    );
    expect(missing.map((action) => action.name)).toEqual([]);
  });

  it('lists every action the family modules define', () => {
    const defined = [bidInput, bidPointer, chat, coord, keyboard, nav, upload]
      .flatMap((family) => Object.values(family))
      .filter(
        (value): value is (typeof ACTIONS)[number] =>
          typeof value === 'object' && value !== null && 'run' in value && 'name' in value,
      );
    expect(defined.filter((action) => !ACTIONS.includes(action)).map((action) => action.name)).toEqual([]);
    expect(defined).toHaveLength(ACTIONS.length);
  });

  it('marks no action as evaluating script: all of them are Playwright input', () => {
    expect(ACTIONS.filter((spec) => spec.needsScript)).toEqual([]);
  });

  it('constrains mouse buttons and modifier keys', () => {
    expect(findAction('mouse_up')?.params.find((p) => p.name === 'button')?.allowed).toEqual([
      'left',
      'middle',
      'right',
    ]);
    expect(findAction('dblclick')?.params.find((p) => p.name === 'modifiers')?.allowed).toEqual([
      'Alt',
      'Control',
      'ControlOrMeta',
      'Meta',
      'Shift',
    ]);
    expect(findAction('nope')).toBeUndefined();
  });

  it.each(ACTIONS.flatMap((spec) => spec.examples.map((example) => [spec.name, example])))(
    '%s example %s parses and binds',
    (name, example) => {
      const calls = parseActions(example, { strict: true, multiAction: false });
      expect(calls.map((call) => bindCall(call, new Set([name])).name)).toEqual([name]);
    },
  );
});

describe('resolveSubsets', () => {
  const bidActions = [
    'click',
    'dblclick',
    'hover',
    'fill',
    'select_option',
    'press',
    'focus',
    'clear',
    'drag_and_drop',
    'upload_file',
    'scroll',
  ];
  const coordActions = [
    'scroll',
    'scroll_at',
    'mouse_move',
    'mouse_down',
    'mouse_up',
    'mouse_click',
    'mouse_dblclick',
    'mouse_drag_and_drop',
    'mouse_upload_file',
    'keyboard_down',
    'keyboard_up',
    'keyboard_press',
    'keyboard_type',
    'keyboard_insert_text',
  ];
  const defaults = [
    'noop',
    'send_msg_to_user',
    'report_infeasible',
    ...bidActions,
    'go_back',
    'go_forward',
    'goto',
    'new_tab',
    'tab_close',
    'tab_focus',
  ];
  const miniwob = [
    'noop',
    'mouse_move',
    'mouse_click',
    'mouse_dblclick',
    'mouse_down',
    'mouse_up',
    'scroll',
    'click',
    'keyboard_press',
    'keyboard_type',
    'fill',
  ];

  it.each<[string[], string[]]>([
    [[], ['noop']],
    [['default'], defaults],
    [['chat', 'infeas', 'bid', 'nav', 'tab'], defaults],
    [['bid'], ['noop', ...bidActions]],
    [['coord'], ['noop', ...coordActions]],
    [['miniwob_all'], miniwob],
    [
      ['chat', 'coord'],
      ['noop', 'send_msg_to_user', ...coordActions],
    ],
    [['default', 'coord'], ACTIONS.map((spec) => spec.name)],
  ])('%j', (names, expected) => {
    expect([...resolveSubsets(names)].sort()).toEqual([...new Set(expected)].sort());
  });

  it('names the valid choices when a name is unknown', () => {
    expect(() => resolveSubsets(['bid', 'mouse', 'toString'])).toThrow(
      "Unknown action subsets 'mouse', 'toString'. Valid subsets: noop, chat, infeas, bid, coord, nav, tab; presets: default, miniwob_all.",
    );
  });

  it('names a single unknown subset', () => {
    expect(() => resolveSubsets(['coords'])).toThrow(/^Unknown action subset 'coords'\. Valid subsets: /);
  });

  it('builds presets only from known subsets and actions', () => {
    for (const item of Object.values(PRESETS).flat()) {
      expect((SUBSETS as readonly string[]).includes(item) || findAction(item) !== undefined, item).toBe(true);
    }
  });
});
