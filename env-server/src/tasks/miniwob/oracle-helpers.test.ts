import { describe, expect, it } from 'vitest';
import { act, find, findAll, fromGoal, hasState, mustFind, OracleError, parseAxtree, quotedValues } from './oracle.js';

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
    expect(findAll(nodes, 'button').map((n) => n.bid)).toEqual(['21']);
    expect(find(nodes, 'checkbox', (name) => name === "it's")?.bid).toBe('8');
    expect(find(nodes, 'button', (name) => name === 'no bid')).toBeUndefined();
  });

  it('reads states printed as quoted strings, Python booleans or bare flags', () => {
    const [box, item] = [mustFind(nodes, 'checkbox', any), mustFind(nodes, 'treeitem', any)];
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
    const node = mustFind(nodes, 'button', any);
    expect(act.fill(node, "it's", true)).toBe(`fill('21', 'it\\'s', True)`);
    expect(act.select(node, 'x')).toBe(`select_option('21', 'x')`);
    expect(act.press(node, 'Enter')).toBe(`press('21', 'Enter')`);
    expect([act.focus(node), act.clear(node)]).toEqual([`focus('21')`, `clear('21')`]);
  });
});
