import { describe, expect, it } from 'vitest';
import { conversationParts, trimConversation, type Conversation } from './sft-trim.js';

const msg = (role: 'system' | 'user' | 'assistant', content: string) => ({ role, content });
/** System prompt, then `n` exchanges u1/a1 … un/an; assistant turns trained. */
function chat(n: number, systemPrompt = true): Conversation {
  const messages = [
    ...(systemPrompt ? [msg('system', 'S')] : []),
    ...Array.from({ length: n }, (_, i) => [msg('user', `u${i + 1}`), msg('assistant', `a${i + 1}`)]).flat(),
  ];
  return { messages, trained: messages.map((m) => m.role === 'assistant') };
}
/** A stand-in encoder: one token per message, so a length limit is a message count. */
const encode = (c: Conversation) => ({ tokens: c.messages.map((m) => m.content) });
const contents = (c: Conversation | undefined) => c?.messages.map((m) => m.content);

describe('trimConversation', () => {
  it('keeps a conversation that fits as it is', () => {
    expect(trimConversation(chat(3), 7, encode)).toMatchObject({ droppedExchanges: 0, messages: chat(3).messages });
  });

  it('drops the oldest exchanges first, keeping the system prompt, the goal turn and the final actions', () => {
    const trimmed = trimConversation(chat(5), 7, encode);
    expect(contents(trimmed)).toEqual(['S', 'u1', 'a1', 'u4', 'a4', 'u5', 'a5']);
    expect(trimmed).toMatchObject({ droppedExchanges: 2, trained: [false, false, true, false, true, false, true] });
    expect(contents(trimConversation(chat(5), 5, encode))).toEqual(['S', 'u1', 'a1', 'u5', 'a5']);
  });

  it('finds the fewest drops for long conversations (every count, not only the halving points)', () => {
    for (let limit = 5; limit <= 41; limit += 2) {
      const trimmed = trimConversation(chat(20), limit, encode)!;
      expect(trimmed.messages).toHaveLength(limit);
      expect(trimmed.droppedExchanges).toBe((41 - limit) / 2);
      expect(contents(trimmed)!.slice(-2)).toEqual(['u20', 'a20']);
    }
  });

  it('gives up when the kept parts alone do not fit', () => {
    expect(trimConversation(chat(5), 4, encode)).toBeUndefined();
    expect(trimConversation(chat(1), 2, encode)).toBeUndefined();
  });

  it('keeps a final exchange with several replies whole, and turns after the last trained one', () => {
    const base = chat(3);
    const messages = [...base.messages, msg('assistant', 'a3b'), msg('user', 'u4')];
    const trained = [...base.trained, true, false];
    expect(conversationParts({ messages, trained })).toEqual({ head: 3, tail: 5, exchanges: [3] });
    expect(contents(trimConversation({ messages, trained }, 7, encode))).toEqual([
      'S',
      'u1',
      'a1',
      'u3',
      'a3',
      'a3b',
      'u4',
    ]);
  });

  it('trims prompt/completion conversations (only the completion trained) and ones without a system prompt', () => {
    const prompt = chat(4);
    const trained = prompt.trained.map((t, i) => t && i === prompt.trained.length - 1);
    expect(contents(trimConversation({ ...prompt, trained }, 5, encode))).toEqual(['S', 'u1', 'a1', 'u4', 'a4']);
    expect(contents(trimConversation(chat(4, false), 4, encode))).toEqual(['u1', 'a1', 'u4', 'a4']);
  });

  it('has nothing to drop in one or two exchanges', () => {
    expect(conversationParts(chat(1))).toEqual({ head: 3, tail: 3, exchanges: [] });
    expect(conversationParts(chat(2))).toEqual({ head: 5, tail: 5, exchanges: [] });
    expect(trimConversation(chat(2), 4, encode)).toBeUndefined();
  });
});
