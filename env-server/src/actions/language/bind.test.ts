import { describe, expect, it } from 'vitest';
import { bindCall } from './bind.js';
import { SCROLL_STEP_PX } from './bindAliases.js';
import { resolveSubsets } from '../catalog/subsets.js';
import { parseActions } from './parse.js';
import { ActionError, type Literal } from '../types.js';

const DEFAULT = resolveSubsets(['default']);
const EVERYTHING = resolveSubsets(['default', 'coord']);

function bind(text: string, allowed: ReadonlySet<string> = EVERYTHING): Record<string, Literal> {
  const [call] = parseActions(text, { strict: true, multiAction: false });
  if (call === undefined) throw new Error('no call');
  return bindCall(call, allowed).params;
}

function errorOf(text: string, allowed: ReadonlySet<string> = EVERYTHING): string {
  try {
    bind(text, allowed);
  } catch (error) {
    if (error instanceof ActionError) return error.display;
    throw error;
  }
  return 'bound';
}

describe('binding fills defaults and keeps values', () => {
  it.each<[string, Record<string, Literal>]>([
    ["click('12')", { bid: '12', button: 'left', modifiers: [] }],
    ["click('12', 'right')", { bid: '12', button: 'right', modifiers: [] }],
    [
      "click(modifiers=['Shift', 'ControlOrMeta'], bid='a5')",
      { bid: 'a5', button: 'left', modifiers: ['Shift', 'ControlOrMeta'] },
    ],
    ["click('12', modifiers=('Alt',))", { bid: '12', button: 'left', modifiers: ['Alt'] }],
    ['noop()', { wait_ms: 1000 }],
    // The longest real chords stay within the cap; `+` after a `+` is the plus key.
    [
      "keyboard_press('ControlOrMeta+Control+Alt+Shift+Meta+AudioVolumeMute')",
      { key: 'ControlOrMeta+Control+Alt+Shift+Meta+AudioVolumeMute' },
    ],
    ["press('4', 'Shift++')", { bid: '4', key_comb: 'Shift++' }],
    ['noop(250.5)', { wait_ms: 250.5 }],
    ["fill('3', 'hello')", { bid: '3', value: 'hello', enable_autocomplete_menu: false }],
    ["fill('3', '', True)", { bid: '3', value: '', enable_autocomplete_menu: true }],
    ["select_option('7', ['a', 'b'])", { bid: '7', options: ['a', 'b'] }],
    ["select_option('7', 'a')", { bid: '7', options: 'a' }],
    ["upload_file('7', [])", { bid: '7', file: [] }],
    ['scroll(0, -120.5)', { delta_x: 0, delta_y: -120.5 }],
    ['mouse_click(10, 20.5)', { x: 10, y: 20.5, button: 'left' }],
    ['mouse_move(-100000, 100000)', { x: -100000, y: 100000 }],
    ['scroll(0, 1e5)', { delta_x: 0, delta_y: 100000 }],
    ['noop(0)', { wait_ms: 0 }],
    ["mouse_up(1, 2, button='middle')", { x: 1, y: 2, button: 'middle' }],
    ['tab_focus(0)', { index: 0 }],
    ['go_back()', {}],
  ])('%s', (text, expected) => {
    expect(bind(text)).toEqual(expected);
  });

  it('returns the name and exact source with the params', () => {
    const [call] = parseActions("Do it: click( '12' )");
    expect(call && bindCall(call, DEFAULT)).toEqual({
      name: 'click',
      params: { bid: '12', button: 'left', modifiers: [] },
      source: "click( '12' )",
    });
  });

  it('gives every call its own copy of a default list', () => {
    const first = bind("click('1')");
    (first.modifiers as Literal[]).push('Shift');
    expect(bind("click('2')").modifiers).toEqual([]);
  });
});

describe('NameError for actions that are unknown or not enabled', () => {
  it.each<[string, ReadonlySet<string>, string]>([
    ["x('1')", EVERYTHING, "NameError: Invalid action type 'x'."],
    ["Click('1')", EVERYTHING, "NameError: Invalid action type 'Click'."],
    [
      'mouse_click(1, 2)',
      DEFAULT,
      "NameError: Invalid action type 'mouse_click'. (not enabled: enable the 'coord' subset)",
    ],
    [
      'scroll(0, 1)',
      resolveSubsets(['chat']),
      "NameError: Invalid action type 'scroll'. (not enabled: enable the 'bid' or 'coord' subset)",
    ],
    [
      "goto('http://a.b')",
      resolveSubsets(['miniwob_all']),
      "NameError: Invalid action type 'goto'. (not enabled: enable the 'nav' subset)",
    ],
    [
      "send_keys('hi')",
      DEFAULT,
      "NameError: Invalid action type 'send_keys'. (send_keys is not a BrowserGym action: use fill(bid, value) or press(bid, key_comb))",
    ],
    [
      "send_keys('hi')",
      resolveSubsets(['coord']),
      "NameError: Invalid action type 'send_keys'. (send_keys is not a BrowserGym action: use keyboard_type(text) or keyboard_press(key))",
    ],
    [
      "send_keys('hi')",
      resolveSubsets(['chat']),
      "NameError: Invalid action type 'send_keys'. (send_keys is not a BrowserGym action)",
    ],
    ["toString('1')", EVERYTHING, "NameError: Invalid action type 'toString'."],
    ["__proto__('1')", EVERYTHING, "NameError: Invalid action type '__proto__'."],
  ])('%s', (text, allowed, expected) => {
    expect(errorOf(text, allowed)).toBe(expected);
  });
});

describe('TypeError texts match CPython', () => {
  it.each<[string, string]>([
    ['click()', "TypeError: click() missing 1 required positional argument: 'bid'"],
    ['drag_and_drop()', "TypeError: drag_and_drop() missing 2 required positional arguments: 'from_bid' and 'to_bid'"],
    ['scroll_at(1)', "TypeError: scroll_at() missing 3 required positional arguments: 'y', 'dx', and 'dy'"],
    ['scroll_at(1, dy=2)', "TypeError: scroll_at() missing 2 required positional arguments: 'y' and 'dx'"],
    ["click(button='right')", "TypeError: click() missing 1 required positional argument: 'bid'"],
    ["click('1', 'left', [], 4)", 'TypeError: click() takes from 1 to 3 positional arguments but 4 were given'],
    ["hover('1', '2')", 'TypeError: hover() takes 1 positional argument but 2 were given'],
    ["drag_and_drop('1', '2', '3')", 'TypeError: drag_and_drop() takes 2 positional arguments but 3 were given'],
    ['go_back(1)', 'TypeError: go_back() takes 0 positional arguments but 1 was given'],
    ['new_tab(1, 2)', 'TypeError: new_tab() takes 0 positional arguments but 2 were given'],
    ['noop(1, 2)', 'TypeError: noop() takes from 0 to 1 positional arguments but 2 were given'],
    ["click('1', x=2)", "TypeError: click() got an unexpected keyword argument 'x'"],
    ["click('1', bid='2')", "TypeError: click() got multiple values for argument 'bid'"],
    // CPython reports keyword problems before counting positionals, and both before missing ones.
    ["hover('1', '2', bid='3')", "TypeError: hover() got multiple values for argument 'bid'"],
    ["hover('1', '2', x=3)", "TypeError: hover() got an unexpected keyword argument 'x'"],
    ["hover('1', '2', '3')", 'TypeError: hover() takes 1 positional argument but 3 were given'],
    ['go_back(__proto__=1)', "TypeError: go_back() got an unexpected keyword argument '__proto__'"],
  ])('%s', (text, expected) => {
    expect(errorOf(text)).toBe(expected);
  });
});

describe('ValueError for values of the wrong kind', () => {
  it.each<[string, string]>([
    ['click(42.7)', 'ValueError: expected a string, got 42.7'],
    ['click(42)', 'ValueError: expected a string, got 42'],
    ['hover(True)', 'ValueError: expected a string, got True'],
    ['focus(None)', 'ValueError: expected a string, got None'],
    ["clear(['1'])", "ValueError: expected a string, got ['1']"],
    ["drag_and_drop('1', 2)", 'ValueError: expected a string, got 2'],
    [
      "click('1', button='top')",
      "ValueError: click() argument 'button' must be one of 'left', 'middle', 'right', got 'top'",
    ],
    [
      "click('1', button=None)",
      "ValueError: click() argument 'button' must be one of 'left', 'middle', 'right', got None",
    ],
    [
      "mouse_down(1, 2, 'Left')",
      "ValueError: mouse_down() argument 'button' must be one of 'left', 'middle', 'right', got 'Left'",
    ],
    [
      "click('1', modifiers=['Ctrl'])",
      "ValueError: click() argument 'modifiers' must be a list with items from 'Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift', got ['Ctrl']",
    ],
    [
      "dblclick('1', modifiers='Shift')",
      "ValueError: dblclick() argument 'modifiers' must be a list with items from 'Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift', got 'Shift'",
    ],
    ["fill('1', 42)", "ValueError: fill() argument 'value' must be a string, got 42"],
    [
      "fill('1', 'x', 'yes')",
      "ValueError: fill() argument 'enable_autocomplete_menu' must be True or False, got 'yes'",
    ],
    ["mouse_move('10', 20)", "ValueError: mouse_move() argument 'x' must be a number from -100000 to 100000, got '10'"],
    ['mouse_move(True, 20)', "ValueError: mouse_move() argument 'x' must be a number from -100000 to 100000, got True"],
    ['scroll(0, 1e999)', "ValueError: scroll() argument 'delta_y' must be a number from -100000 to 100000, got inf"],
    // Chromium reads wheel deltas and coordinates as 32-bit floats: 1e39 is infinity there and froze the page's input.
    ['scroll(0, 1e39)', "ValueError: scroll() argument 'delta_y' must be a number from -100000 to 100000, got 1e+39"],
    [
      'scroll(-100001, 0)',
      "ValueError: scroll() argument 'delta_x' must be a number from -100000 to 100000, got -100001",
    ],
    [
      'scroll_at(1, 2, 0, 1e38)',
      "ValueError: scroll_at() argument 'dy' must be a number from -100000 to 100000, got 1e+38",
    ],
    [
      'mouse_click(1e6, 5)',
      "ValueError: mouse_click() argument 'x' must be a number from -100000 to 100000, got 1000000",
    ],
    [
      'mouse_drag_and_drop(0, 0, 5, -1e300)',
      "ValueError: mouse_drag_and_drop() argument 'to_y' must be a number from -100000 to 100000, got -1e+300",
    ],
    [
      "mouse_upload_file(5, 1e9, 'a.txt')",
      "ValueError: mouse_upload_file() argument 'y' must be a number from -100000 to 100000, got 1000000000",
    ],
    // Playwright presses a chord's keys in one call nothing can stop: 5,001 keys ran 9.5 s past the deadline;
    // a value longer than 80 characters is shown cut.
    [
      `keyboard_press('${'Shift+'.repeat(12)}a')`,
      "ValueError: keyboard_press() argument 'key' must be a key or key combination of at most 6 keys and 64 characters, got 'Shift+Shift+Shift+Shift+Shift+Shift+Shift+Shift+Shift+Shift+Shift+Shift+a'",
    ],
    [
      "press('1', 'Control+Alt+Shift+Meta+ControlOrMeta+Control+a')",
      "ValueError: press() argument 'key_comb' must be a key or key combination of at most 6 keys and 64 characters, got 'Control+Alt+Shift+Meta+ControlOrMeta+Control+a'",
    ],
    [
      `keyboard_down('${'x'.repeat(65)}')`,
      "ValueError: keyboard_down() argument 'key' must be a key or key combination of at most 6 keys and 64 characters, got 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'",
    ],
    ['noop(-1)', "ValueError: noop() argument 'wait_ms' must be a number from 0 to 600000, got -1"],
    ['noop(1e12)', "ValueError: noop() argument 'wait_ms' must be a number from 0 to 600000, got 1000000000000"],
    ['tab_focus(1.5)', "ValueError: tab_focus() argument 'index' must be an integer, got 1.5"],
    ["tab_focus('1')", "ValueError: tab_focus() argument 'index' must be an integer, got '1'"],
    [
      "select_option('1', ['a', 2])",
      "ValueError: select_option() argument 'options' must be a string or a list of strings, got ['a', 2]",
    ],
    [
      "upload_file('1', {'f': 1})",
      "ValueError: upload_file() argument 'file' must be a string or a list of strings, got {'f': 1}",
    ],
    ['goto(url=None)', "ValueError: goto() argument 'url' must be a string, got None"],
  ])('%s', (text, expected) => {
    expect(errorOf(text)).toBe(expected);
  });
});

describe("scroll('down') and friends map to pixel deltas", () => {
  it.each<[string, Record<string, Literal>]>([
    ["scroll('down')", { delta_x: 0, delta_y: SCROLL_STEP_PX }],
    ["scroll('up')", { delta_x: 0, delta_y: -SCROLL_STEP_PX }],
    ["scroll('right')", { delta_x: SCROLL_STEP_PX, delta_y: 0 }],
    ["scroll('left')", { delta_x: -SCROLL_STEP_PX, delta_y: 0 }],
  ])('%s', (text, expected) => {
    expect(bind(text, DEFAULT)).toEqual(expected);
  });

  it.each<[string, string]>([
    [
      "scroll('sideways')",
      "ValueError: scroll() direction must be one of 'down', 'up', 'right', 'left', got 'sideways' (or pass pixel deltas: scroll(delta_x, delta_y))",
    ],
    [
      "scroll('down', 500)",
      "ValueError: scroll() argument 'delta_x' must be a number from -100000 to 100000, got 'down'",
    ],
    ["scroll(direction='down')", "TypeError: scroll() got an unexpected keyword argument 'direction'"],
    ['scroll(3)', "TypeError: scroll() missing 1 required positional argument: 'delta_y'"],
  ])('%s is not rewritten into a guess', (text, expected) => {
    expect(errorOf(text)).toBe(expected);
  });
});
