import { describe, expect, it } from 'vitest';
import { TokenHistory } from './token-history.js';
import { ContextBudgetError } from './outcome.js';

const head = [1, 2, 3, 4];

describe('TokenHistory', () => {
  it("turn k+1's prompt is turn k's prompt + completion + env ids, concatenated", () => {
    const history = new TokenHistory(head);
    const first = history.prompt(8);
    expect(first).toEqual(head);
    history.addCompletion([10, 11]);
    history.addEnv([20, 21, 22]);
    const second = history.prompt(8);
    expect(second).toEqual([...head, 10, 11, 20, 21, 22]);
    history.addCompletion([12]);
    history.addEnv([23]);
    expect(history.prompt(8)).toEqual([...second, 12, 23]);
    expect(history.trimmedExchanges).toBe(0);
  });

  it('trims the oldest exchanges to fit the budget, keeping the head and the latest exchange, and never un-trims', () => {
    // head 4 + reply 4 leaves 6 tokens for exchanges of 3 tokens each.
    const history = new TokenHistory(head, { contextTokens: 14 });
    const exchanges = [
      [10, 11, 12],
      [20, 21, 22],
      [30, 31, 32],
      [40, 41, 42],
    ];
    const prompts: number[][] = [];
    for (const [c, e1, e2] of exchanges) {
      prompts.push(history.prompt(4));
      history.addCompletion([c!]);
      history.addEnv([e1!, e2!]);
    }
    prompts.push(history.prompt(4));
    expect(prompts[2]).toEqual([...head, 10, 11, 12, 20, 21, 22]);
    expect(prompts[3]).toEqual([...head, 20, 21, 22, 30, 31, 32]);
    expect(prompts[4]).toEqual([...head, 30, 31, 32, 40, 41, 42]);
    expect(history.trimmedExchanges).toBe(2);
    // A smaller reply afterwards does not bring the dropped exchanges back: prompts keep extending.
    expect(history.prompt(1)).toEqual(prompts[4]);
  });

  it('throws ContextBudgetError when the head and the latest exchange alone do not fit', () => {
    const history = new TokenHistory(head, { contextTokens: 10 });
    history.prompt(6);
    history.addCompletion([10, 11, 12]);
    history.addEnv([13, 14]);
    expect(() => history.prompt(6)).toThrow(ContextBudgetError);
    expect(() => new TokenHistory(head, { contextTokens: 5 }).prompt(2)).toThrow(
      /needs 6 tokens .* context budget is 5/,
    );
  });

  it('refuses bookkeeping out of order', () => {
    const history = new TokenHistory(head);
    expect(() => history.addEnv([1])).toThrow(/env tokens without a completion/);
    history.addCompletion([1]);
    expect(() => history.prompt(1)).toThrow(/no env tokens yet/);
    expect(() => history.addCompletion([2])).toThrow(/two completions in a row/);
    expect(() => new TokenHistory([])).toThrow(/no tokens/);
  });
});
