import { describe, expect, it } from 'vitest';
import { parseActions, type ParseOptions } from './parse.js';
import { ActionError } from '../types.js';

/** Each call as `name(args; kwargs)` so tables stay readable. */
function summarize(text: string, options: ParseOptions = {}): string[] {
  return parseActions(text, options).map(
    (call) => `${call.name}${JSON.stringify(call.args)}${JSON.stringify(call.kwargs)}`,
  );
}

function errorOf(text: string, options: ParseOptions = {}): string {
  try {
    parseActions(text, options);
  } catch (error) {
    if (error instanceof ActionError) return error.display;
    throw error;
  }
  return 'parsed';
}

describe('calls in either mode', () => {
  it.each<[string, string[]]>([
    ["click('12')", ['click["12"]{}']],
    ["click('12', button='right', modifiers=['Shift'])", ['click["12"]{"button":"right","modifiers":["Shift"]}']],
    ["click(bid='12')", ['click[]{"bid":"12"}']],
    ["click('12',)", ['click["12"]{}']],
    ['noop()', ['noop[]{}']],
    ["fill(\n  '12',  # the search box\n  'query',\n)", ['fill["12","query"]{}']],
    ["fill('12', 'a' \\\n 'b')", ['fill["12","ab"]{}']],
    ["click('12')\nfill('3', 'x')", ['click["12"]{}', 'fill["3","x"]{}']],
    ["click('12'); fill('3', 'x')", ['click["12"]{}', 'fill["3","x"]{}']],
    ["# first the button\nclick('12')  # then done\n", ['click["12"]{}']],
    ['send_msg_to_user(\'click("1") is # not a call\')', ['send_msg_to_user["click(\\"1\\") is # not a call"]{}']],
    ["échelle('x')", ['échelle["x"]{}']],
  ])('%j', (text, expected) => {
    expect(summarize(text, { strict: true })).toEqual(expected);
    expect(summarize(text)).toEqual(expected);
  });

  it('keeps the exact source of each call', () => {
    const text = 'Sure.\n```\nclick( \'12\' ,button = "left")  # go\nnoop(  )\n```';
    expect(parseActions(text).map((call) => call.source)).toEqual([`click( '12' ,button = "left")`, 'noop(  )']);
  });

  it('allows whitespace before the parenthesis in strict mode, as Python does', () => {
    expect(parseActions("click ('12')", { strict: true })[0]?.source).toBe("click ('12')");
  });
});

describe('non-strict mode skips prose', () => {
  it.each<[string, string[]]>([
    ["I will click the button.\n```click('12')```", ['click["12"]{}']],
    ["I'll click it: click('12'). That's all.", ['click["12"]{}']],
    ["```python\nfill('a1', \"it's\")\n```", ['fill["a1","it\'s"]{}']],
    ["Click the button (the blue one) now: click('7')", ['click["7"]{}']],
    ["The option (3) is right, see Step (2): select_option('5', 'x')", ['select_option["5","x"]{}']],
    ["Using page.click('12') would be wrong; click('12') is right.", ['click["12"]{}']],
    ["print(x) fails to parse, focus('4') does not", ['focus["4"]{}']],
    ["Action: `click('12'`, oops; hover('3')", ['hover["3"]{}']],
    ["click(bid='1', 'x') is malformed; clear('2')", ['clear["2"]{}']],
    ["# Plan\n1. open the menu (left side)\n2. press('9', 'Enter')", ['press["9","Enter"]{}']],
    ["Thought: the form is done.\nAction: click('a51', button='right')", ['click["a51"]{"button":"right"}']],
    ["first click('1') then click('2')", ['click["1"]{}', 'click["2"]{}']],
    ['unknown_action(1) is still a call', ['unknown_action[1]{}']],
  ])('%j', (text, expected) => {
    expect(summarize(text)).toEqual(expected);
  });
});

describe('strict mode accepts only calls', () => {
  it.each<[string, string]>([
    ["I will click.\nclick('12')", "SyntaxError: expected '(' after I at line 1, column 3: 'will click.'"],
    ["```click('12')```", 'SyntaxError: expected an action call at line 1, column 1: "```click(\'12\')```"'],
    [
      "click('12') click('13')",
      "SyntaxError: expected a newline or ';' between calls at line 1, column 13: \"click('13')\"",
    ],
    ["click('12')\nthen stop", "SyntaxError: expected '(' after then at line 2, column 6: 'stop'"],
    ["page.click('12')", "SyntaxError: expected '(' after page at line 1, column 5: \".click('12')\""],
    ["click('12'", "SyntaxError: expected ',' or ')' at line 1, column 11: end of input"],
    ["click(\n'12',", 'SyntaxError: expected a literal value at line 2, column 6: end of input'],
    ["click(bid='1', 'x')", 'SyntaxError: positional argument follows keyword argument at line 1, column 16: "\'x\')"'],
    ["click(bid='1', bid='2')", 'SyntaxError: keyword argument repeated: bid at line 1, column 16: "bid=\'2\')"'],
    ['click(True=1)', "SyntaxError: expected ',' or ')' at line 1, column 11: '=1)'"],
    ["click('1')\n\n  x\n", "SyntaxError: expected '(' after x at line 4, column 1: end of input"],
    [
      "fill('1', 'a very long value that goes on and on')\nand on",
      "SyntaxError: expected '(' after and at line 2, column 5: 'on'",
    ],
    [
      "hover('1')\nThis sentence is longer than the snippet",
      "SyntaxError: expected '(' after This at line 2, column 6: 'sentence is longer than '...",
    ],
  ])('%j', (text, expected) => {
    expect(errorOf(text, { strict: true })).toBe(expected);
  });
});

describe('action counts', () => {
  it.each<[string, ParseOptions, string]>([
    ['', {}, 'ValueError: Received an empty action.'],
    ['   \n# only a comment\n', { strict: true }, 'ValueError: Received an empty action.'],
    ['I am not sure what to do (yet).', {}, 'ValueError: Received an empty action.'],
    [
      "click('1')\nclick('2')",
      { multiAction: false },
      'ValueError: Received a multi-action, only single-actions are allowed.',
    ],
    [
      "click('1'); click('2')",
      { multiAction: false, strict: true },
      'ValueError: Received a multi-action, only single-actions are allowed.',
    ],
  ])('%j %j', (text, options, expected) => {
    expect(errorOf(text, options)).toBe(expected);
  });

  it('treats a degenerate repetition as prose instead of overflowing the stack', () => {
    expect(errorOf(`click(${'[{('.repeat(50_000)}`)).toBe('ValueError: Received an empty action.');
    expect(summarize(`${'click(['.repeat(20_000)} hover('1')`)).toEqual(['hover["1"]{}']);
  });

  it('allows several calls by default and one call in single-action mode', () => {
    expect(summarize("click('1')\nclick('2')")).toHaveLength(2);
    expect(summarize("Now: click('1')", { multiAction: false })).toEqual(['click["1"]{}']);
  });
});

describe('keyword arguments', () => {
  it('stores "__proto__" as an ordinary keyword, not the prototype', () => {
    const [call] = parseActions("click('1', __proto__='x')");
    expect(Object.keys(call?.kwargs ?? {})).toEqual(['__proto__']);
    expect(call?.kwargs['__proto__']).toBe('x');
  });
});

describe('hostile action strings', () => {
  // Each input is what a sampling model emits on a bad day; all must be scanned in linear time.
  const hostile: [string, string][] = [
    ['a run of letters', 'a'.repeat(200_000)],
    ['an unterminated string of letters', "f('" + 'x'.repeat(200_000)],
    ['a call start repeated', 'f('.repeat(100_000)],
    ['strings that never close', "f('" + "f(\\'".repeat(50_000)],
    ['nested brackets repeated', 'click(['.repeat(30_000)],
    ['digits', 'f(' + '1'.repeat(200_000)],
    ['a dotted name chain', 'a.'.repeat(100_000) + 'b('],
  ];

  it.each(hostile)('%s takes linear time in either mode', (_what, text) => {
    for (const strict of [false, true]) {
      const started = performance.now();
      errorOf(text, { strict });
      // Generous bound (linear work is ~1 µs per character here); the quadratic scan took seconds at 80 k.
      expect(performance.now() - started).toBeLessThan(100 + text.length * 0.02);
    }
  });

  it('refuses an action longer than the cap before reading it', () => {
    expect(errorOf("click('1')" + ' '.repeat(100), { maxChars: 100 })).toBe(
      'ValueError: Received an action of 110 characters; the server accepts at most 100.',
    );
    expect(summarize("click('1')", { maxChars: 10 })).toEqual(['click["1"]{}']);
  });

  it('refuses more calls per step than the cap, running none', () => {
    expect(errorOf('new_tab()\n'.repeat(17), { maxCalls: 16 })).toBe(
      'ValueError: Received 17 actions in one step; the server runs at most 16 per step, so none was run.',
    );
    expect(summarize('noop()\n'.repeat(16), { maxCalls: 16 })).toHaveLength(16);
  });
});
