import { describe, expect, it } from 'vitest';
import type { StepResult } from '../wire/observation.js';
import { quotedValues } from './goal-quotes.js';
import { turnRegex } from './turn-regex.js';

const full = (source: string) => new RegExp(`^(?:${source})$`);
const page = (goal: string, tree: string) => ({ observation: { goal, axtree_txt: tree } }) as unknown as StepResult;
const login = page(
  'Enter the username "ann" and the password "x1 y2" into the text fields and press login.',
  "\t[4] textbox 'Username'\n\t[5] textbox 'Password'\n\t[6] button 'Login'",
);

describe('turnRegex', () => {
  it("with text choices, fill types one of the goal's quoted values into one of the page's elements", () => {
    const regex = full(turnRegex(login, { bidChoices: true, textChoices: true }));
    for (const ok of ["fill('4', 'ann')", "fill('5', 'x1 y2')", "click('6')", 'noop()'])
      expect(regex.test(ok), ok).toBe(true);
    for (const bad of ["fill('4', 'anne')", "fill('5', 'x1y2')", "fill('7', 'ann')"])
      expect(regex.test(bad), bad).toBe(false);
  });

  it('each narrowing is its own: text choices alone leave elements free, bid choices alone leave text free', () => {
    const textOnly = full(turnRegex(login, { textChoices: true }));
    expect([textOnly.test("fill('99', 'ann')"), textOnly.test("fill('4', 'bob')")]).toEqual([true, false]);
    const bidOnly = full(turnRegex(login, { bidChoices: true }));
    expect([bidOnly.test("fill('4', 'bob')"), bidOnly.test("fill('99', 'ann')")]).toEqual([true, false]);
  });

  it('a goal that quotes nothing leaves fill free; a page without elements leaves only actions that need none', () => {
    const unquoted = page('Type anything.', "\t[4] textbox ''");
    expect(full(turnRegex(unquoted, { bidChoices: true, textChoices: true })).test("fill('4', 'hi')")).toBe(true);
    const bare = full(turnRegex(page('Enter "a".', "StaticText 'none'"), { bidChoices: true, textChoices: true }));
    expect([bare.test('noop()'), bare.test("fill('4', 'a')")]).toEqual([true, false]);
    expect(full(turnRegex(page('x', ''), { bidChoices: true, names: ['click'] })).test('noop()')).toBe(true);
  });

  it('multi-action replies narrow every line', () => {
    const regex = full(turnRegex(login, { bidChoices: true, textChoices: true, multiAction: true }));
    expect(regex.test("fill('4', 'ann')\nfill('5', 'x1 y2')\nclick('6')")).toBe(true);
    expect(regex.test("fill('4', 'ann')\nfill('5', 'nope')")).toBe(false);
  });
});

describe('quotedValues', () => {
  it('lists every double-quoted value in order, empty ones included', () => {
    expect(quotedValues('Select "a b", "" and "c" then "')).toEqual(['a b', '', 'c']);
  });
});
