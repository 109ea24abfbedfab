import { describe, expect, it } from 'vitest';
import { localContextTokens } from './context-budget.js';

describe('localContextTokens', () => {
  it('caps --context-tokens at the served max_model_len and says so', () => {
    const budget = localContextTokens(32768, 1024, { model: 'm', maxModelLen: 8192, bytesPerToken: 4 });
    expect(budget.contextTokens).toBe(1024 + Math.floor((8192 - 1024) * 0.9));
    expect(budget.note).toMatch(/--context-tokens 32768 is over the served 8192; using 8192/);
  });

  it('scales the prompt share for a tokenizer with fewer bytes a token than the 4-byte estimate', () => {
    const byteLevel = localContextTokens(4096, 96, { model: 'm', maxModelLen: 4096, bytesPerToken: 1 });
    // 4000 real prompt tokens are 4000 bytes: 1000 estimated tokens, less the margin.
    expect(byteLevel.contextTokens).toBe(96 + Math.floor(4000 * 0.25 * 0.9));
    expect(byteLevel.note).toMatch(/1\.00 bytes a token/);
    // A tokenizer with longer tokens than the estimate keeps the estimate (it overcounts: safe).
    expect(localContextTokens(4096, 96, { model: 'm', maxModelLen: 4096, bytesPerToken: 6 })).toEqual({
      contextTokens: 96 + Math.floor(4000 * 0.9),
    });
  });

  it('a reply budget that fills the served context is a usage error naming --max-tokens', () => {
    expect(() => localContextTokens(4096, 4096, { model: 'm', maxModelLen: 4096 })).toThrow(
      /^--max-tokens 4096 leaves no room for a prompt: m takes 4096 tokens in all$/,
    );
  });
});
