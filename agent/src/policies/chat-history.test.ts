import { describe, expect, it } from 'vitest';
import { ContextBudgetError } from '@gauntlet/proto/rollout';
import { ChatHistory, estimateTokens, stripThinking } from './chat-history.js';

const page = (n: number, size = 400) => `page ${n} ${'x'.repeat(size)}`;

describe('ChatHistory', () => {
  it('alternates system, the first page, then reply/page exchanges', () => {
    const history = new ChatHistory('sys', 100_000, 100);
    expect(history.prompt(page(0)).map((m) => m.role)).toEqual(['system', 'user']);
    history.reply("click('1')");
    const second = history.prompt(page(1));
    expect(second.map((m) => [m.role, m.content.slice(0, 6)])).toEqual([
      ['system', 'sys'],
      ['user', 'page 0'],
      ['assistant', 'click('],
      ['user', 'page 1'],
    ]);
  });

  it('over budget, drops the oldest exchanges but keeps the system prompt, the first page and the newest page', () => {
    const budget = 3 * estimateTokens(page(0)) + 2 * estimateTokens("click('1')") + estimateTokens('sys') + 50;
    const history = new ChatHistory('sys', budget, 50);
    history.prompt(page(0));
    for (let n = 1; n <= 5; n++) {
      history.reply("click('1')");
      history.prompt(page(n));
    }
    history.reply("click('1')");
    const messages = history.prompt(page(6));
    expect(messages.filter((m) => m.role === 'user').map((m) => m.content.split(' ')[1])).toEqual(['0', '5', '6']);
    expect(history.trimmed).toBe(4);
  });

  it('a first page and newest page that cannot fit are a ContextBudgetError (the episode times out)', () => {
    const history = new ChatHistory('sys', 300, 100);
    expect(() => history.prompt(page(0, 2_000))).toThrow(ContextBudgetError);
  });
});

describe('stripThinking', () => {
  it('removes closed and trailing unclosed think blocks', () => {
    expect(stripThinking("<think>hmm</think>\nclick('3')")).toBe("click('3')");
    expect(stripThinking("click('3') <think>still going")).toBe("click('3')");
  });
});
