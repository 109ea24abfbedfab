import { describe, expect, it } from 'vitest';
import { find, OracleError, parseAxtree } from './oracle.js';
import {
  allWithBid,
  clear,
  fillOpeningMenu,
  focus,
  fromGoal,
  hasState,
  maybeFind,
  press,
  quotedValues,
  selectOption,
} from './oracle-extras.js';

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
const any = () => true;

describe('finding nodes', () => {
  it('finds only nodes printed with a bid, by role and name', () => {
    expect(allWithBid(nodes, 'button').map((n) => n.bid)).toEqual(['21']);
    expect(maybeFind(nodes, 'checkbox', (name) => name === "it's")?.bid).toBe('8');
    expect(maybeFind(nodes, 'button', (name) => name === 'no bid')).toBeUndefined();
  });

  it('reads states printed as quoted strings, Python booleans or bare flags', () => {
    const [box, item] = [find(nodes, 'checkbox', any), find(nodes, 'treeitem', any)];
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
    expect(fromGoal('Click on Tab #3.', /(Tab #\d)/)).toBe('Tab #3');
    expect(() => fromGoal('Click.', /(Tab #\d)/)).toThrow(OracleError);
    expect(() => fromGoal('Click.', /(Tab #\d)/)).toThrow(/goal "Click\." does not match/);
  });
});

describe('action text', () => {
  it('quotes arguments like Python', () => {
    const node = find(nodes, 'button', any);
    expect(fillOpeningMenu(node, "it's")).toBe(`fill('21', 'it\\'s', True)`);
    expect(selectOption(node, 'x')).toBe(`select_option('21', 'x')`);
    expect(press(node, 'Enter')).toBe(`press('21', 'Enter')`);
    expect([focus(node), clear(node)]).toEqual([`focus('21')`, `clear('21')`]);
  });
});
