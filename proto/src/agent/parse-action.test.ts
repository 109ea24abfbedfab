import { describe, expect, it } from 'vitest';
import { ACTION_REGEX, actionRegex } from './action-regex.js';
import { parseAction } from './parse-action.js';

describe('parseAction', () => {
  it.each([
    ["click('5')", "click('5')"],
    ["Action: click('5')", "click('5')"],
    ["ACTION: fill('12', 'hello world')", "fill('12', 'hello world')"],
    ["```python\nclick('a51')\n```", "click('a51')"],
    ["I should press the button.\n```\nclick('7')\n```\nThat will do it.", "click('7')"],
    ["<think>maybe click('1')? no, hover('2')</think>\nclick('3')", "click('3')"],
    ["Thought: the form is empty, I'll fill it.\nAction: fill('4', 'a) b, c(')", "fill('4', 'a) b, c(')"],
    ['fill("4", "say \\"hi\\" (now)")', 'fill("4", "say \\"hi\\" (now)")'],
    ["click ('9', button='right')", "click('9', button='right')"],
    ["select_option('c48', ['red', 'green'])", "select_option('c48', ['red', 'green'])"],
    ["The answer: noop(500) then click('2')", 'noop(500)'],
  ])('%j → %s', (reply, action) => {
    expect(parseAction(reply)).toEqual({ action, fallback: false });
  });

  it('prefers the call after an "Action:" marker over one mentioned in the reasoning before it', () => {
    expect(parseAction("Earlier I tried click('1'), which failed.\nAction: click('2')").action).toBe("click('2')");
  });

  it('skips calls that do not close, and words that only look like actions', () => {
    expect(parseAction("I will click the button: click('5'").fallback).toBe(true);
    expect(parseAction("clicking('5') then click('6')").action).toBe("click('6')");
    expect(parseAction("await page.click('#go'); click('6')").action).toBe("click('6')");
    expect(parseAction("click('5\n') and click('6')").action).toBe("click('6')");
    expect(parseAction("click('5'] click('6')").action).toBe("click('6')");
  });

  it('keeps every call, one per line, in multi-action mode', () => {
    const reply = "fill('12', 'K3J9QX')\nclick('13')";
    expect(parseAction(reply, { multiAction: true })).toEqual({ action: reply, fallback: false });
    expect(parseAction(reply).action).toBe("fill('12', 'K3J9QX')");
    expect(parseAction("Action:\nfill('1', 'x') and then click('2')", { multiAction: true }).action).toBe(
      "fill('1', 'x')\nclick('2')",
    );
  });

  it('falls back to noop() and says why when nothing parses', () => {
    expect(parseAction('I am not sure what to do.')).toEqual({
      action: 'noop()',
      fallback: true,
      reason: 'no action call found in the reply',
    });
    expect(parseAction('  ')).toEqual({ action: 'noop()', fallback: true, reason: 'empty reply' });
    expect(parseAction('nothing', { fallback: 'noop(100)' }).action).toBe('noop(100)');
  });

  it('stays linear on adversarial replies (a generous bound of 2 µs per character, not a benchmark)', () => {
    for (const reply of [
      "click('".repeat(40_000),
      'click('.repeat(40_000) + "'",
      '```'.repeat(50_000),
      `Action: ${'('.repeat(200_000)}`,
      "fill('x', '".repeat(20_000) + ')'.repeat(20_000),
    ]) {
      const started = performance.now();
      const parsed = parseAction(reply, { multiAction: true });
      expect(performance.now() - started, `${reply.slice(0, 12)}… (${reply.length} chars)`).toBeLessThan(
        reply.length * 0.002,
      );
      expect(typeof parsed.action).toBe('string');
    }
  });
});

describe('actionRegex', () => {
  const full = (source: string) => new RegExp(`^(?:${source})$`);

  it('matches one action call with literal arguments, and nothing else', () => {
    const one = full(ACTION_REGEX);
    for (const action of [
      "click('5')",
      'noop()',
      'noop(500)',
      "fill('12', 'it\\'s \"fine\"')",
      "click('9', button='right', modifiers=['Shift'])",
      'scroll(0, -200.5)',
      "select_option('c48', ['red', 'green'])",
      "fill('3', 'x', True)",
      'go_back()',
    ]) {
      expect(one.test(action), action).toBe(true);
    }
    for (const junk of [
      "click('5') ",
      "click('5')\nclick('6')",
      'click(5 6)',
      "eval('x')",
      "click('5'",
      "Action: click('5')",
      "fill('1', 'line\nbreak')",
    ]) {
      expect(one.test(junk), junk).toBe(false);
    }
  });

  it('allows several lines in multi-action mode, and can narrow the action names', () => {
    expect(full(actionRegex({ multiAction: true })).test("fill('12', 'K3J9QX')\nclick('13')")).toBe(true);
    const clickOnly = full(actionRegex({ names: ['click'] }));
    expect(clickOnly.test("click('1')")).toBe(true);
    expect(clickOnly.test("hover('1')")).toBe(false);
    expect(() => actionRegex({ names: ['click|.*'] })).toThrow(/not an action name/);
  });

  it('with bids, element arguments name only elements on the page; other actions stay free', () => {
    const onPage = full(actionRegex({ names: ['click', 'fill', 'drag_and_drop', 'scroll'], bids: ['13', 'a1.2'] }));
    for (const ok of ["click('13')", 'click("a1.2")', "fill('13', 'x')", "drag_and_drop('13', 'a1.2')", 'scroll(0, 5)'])
      expect(onPage.test(ok), ok).toBe(true);
    for (const bad of ["click('14')", "click('a142')", "click('a1x2')", "fill('7', 'x')", "drag_and_drop('13', '9')"])
      expect(onPage.test(bad), bad).toBe(false);
    // Unusual ids are left out, not escaped into the regex.
    expect(full(actionRegex({ names: ['click'], bids: ['5', "x')|.*"] })).test("click('5')")).toBe(true);
    expect(() => actionRegex({ names: ['click'], bids: [] })).toThrow(/no bids on the page/);
    expect(full(actionRegex({ names: ['click', 'noop'], bids: [] })).test('noop()')).toBe(true);
  });

  it('with texts, fill and select_option take only one of them (quoted either way); other actions stay as they were', () => {
    const names = ['click', 'fill', 'select_option'];
    const typed = full(actionRegex({ names, bids: ['4', '5'], texts: ['Bob', "it's", 'a.b*'] }));
    for (const ok of [
      "fill('4', 'Bob')",
      'fill("5", "Bob")',
      "fill('4', 'it\\'s')",
      'fill("4", "it\'s")',
      "fill('4', 'a.b*', True)",
      "select_option('5', 'Bob')",
      "click('5')",
    ])
      expect(typed.test(ok), ok).toBe(true);
    for (const bad of [
      "fill('4', 'bob')",
      "fill('4', 'Bobby')",
      "fill('4', 'aXbb')",
      "fill('6', 'Bob')",
      "fill('4')",
      "select_option('4', 'Al')",
      "select_option('4', ['Bob'])",
      "click('6')",
    ])
      expect(typed.test(bad), bad).toBe(false);
    const noBids = full(actionRegex({ names: ['fill', 'select_option', 'noop'], texts: ['Bob'] }));
    for (const [reply, allowed] of [
      ["fill('99', 'Bob')", true],
      ["fill('99', 'Al')", false],
      ["select_option('9', 'Bob')", true],
      ["select_option('9', 'Al')", false],
      ['noop()', true],
    ] as const)
      expect(noBids.test(reply), reply).toBe(allowed);
    // Nothing to choose from (or only values no field could take): values stay free.
    for (const texts of [[], ['line\nbreak'], ['x'.repeat(300)]])
      expect(
        full(actionRegex({ names: ['fill'], bids: ['4'], texts })).test("fill('4', 'anything')"),
        String(texts),
      ).toBe(true);
  });

  it('every reply it admits parses back to itself', () => {
    for (const action of ["click('5')", "fill('12', 'a) b')", "press('3', 'Enter')"]) {
      expect(full(ACTION_REGEX).test(action)).toBe(true);
      expect(parseAction(action)).toEqual({ action, fallback: false });
    }
  });
});
