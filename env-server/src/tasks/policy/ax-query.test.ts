import { describe, expect, it } from 'vitest';
import { OracleError } from './action-text.js';
import { act, allWithBid, findOne, fromGoal, hasState, quoted, quotedValues, showsSecret } from './ax-query.js';
import { parseAxtree } from './axtree-lines.js';

const nodes = parseAxtree(
  [
    `RootWebArea 'Task', focused`,
    `\tStaticText 'Select "a" and click Submit.'`,
    `\t[8] checkbox 'it\\'s', focused, checked='true'`,
    `\t[9] treeitem 'Mina', expanded=False, selected=True`,
    `\tbutton 'no bid'`,
    `\t[21] button 'Submit'`,
  ].join('\n'),
);

describe('finding nodes', () => {
  it('finds only nodes printed with a bid, by role and name', () => {
    expect(allWithBid(nodes, 'button').map((n) => n.bid)).toEqual(['21']);
    expect(findOne(nodes, 'checkbox', (name) => name === "it's").bid).toBe('8');
    expect(() => findOne(nodes, 'button', (name) => name === 'no bid')).toThrow(OracleError);
  });

  it('reads states printed as quoted strings, Python booleans or bare flags', () => {
    const [box, item] = [findOne(nodes, 'checkbox'), findOne(nodes, 'treeitem')];
    expect([hasState(box, 'checked'), hasState(box, 'focused'), hasState(box, 'expanded')]).toEqual([
      true,
      true,
      false,
    ]);
    expect([hasState(item, 'expanded'), hasState(item, 'selected')]).toEqual([false, true]);
  });
});

describe('reading the goal', () => {
  it('returns quoted values in order, and fails with OracleError naming the goal', () => {
    expect(quotedValues('from "A" to "B c" on ""')).toEqual(['A', 'B c', '']);
    expect(quoted('to "B"', 0)).toBe('B');
    expect(() => quoted('to "B"', 1)).toThrow(/expected 2 quoted value\(s\) in goal "to \\"B\\""/);
    expect(fromGoal('Click on Tab #3.', /(Tab #\d)/)).toBe('Tab #3');
    expect(() => fromGoal('Click.', /(Tab #\d)/)).toThrow(OracleError);
  });

  it('accepts a masked password of the right length only', () => {
    expect([showsSecret('•••', 'abc'), showsSecret('••', 'abc'), showsSecret('abc', 'abc')]).toEqual([
      true,
      false,
      true,
    ]);
  });
});

describe('action text', () => {
  it('quotes arguments like Python', () => {
    const node = findOne(nodes, 'button');
    expect(act.fill(node, "it's", true)).toBe(`fill('21', 'it\\'s', True)`);
    expect(act.select(node, 'x')).toBe(`select_option('21', 'x')`);
    expect(act.press(node, 'Enter')).toBe(`press('21', 'Enter')`);
    expect([act.click(node), act.focus(node), act.clear(node)]).toEqual([`click('21')`, `focus('21')`, `clear('21')`]);
  });
});
