import { describe, expect, it } from 'vitest';
import { ChatClient, type ChatSettings } from '../src/policies/chat-client.js';
import { ModelBusyError, ModelRequestError } from '../src/policies/model-errors.js';
import { startFakeChat, type FakeAnswer } from './support/fake-chat.js';

const settings = (baseUrl: string, over: Partial<ChatSettings> = {}): ChatSettings => ({
  baseUrl,
  model: 'm',
  temperature: 0,
  topP: 1,
  maxTokens: 16,
  callTimeoutMs: 10_000,
  retries: 3,
  backoffMs: 5,
  ...over,
});

describe('ChatClient against a real HTTP server', () => {
  it('retries 429 and 5xx with backoff, then returns the text and the usage, counting every call', async () => {
    const answers: FakeAnswer[] = [{ status: 429 }, { status: 503 }, { text: "click('7')" }];
    const chat = await startFakeChat(() => answers.shift()!);
    try {
      const reply = await new ChatClient(settings(chat.baseUrl)).complete([{ role: 'user', content: 'hi' }]);
      expect(reply).toMatchObject({ text: "click('7')", calls: 3, model: 'm', usage: { promptTokens: 1 } });
    } finally {
      await chat.close();
    }
  });

  it('gives up after the retries with ModelBusyError, and never retries a 400', async () => {
    const busy = await startFakeChat(() => ({ status: 500, body: 'overloaded' }));
    try {
      const client = new ChatClient(settings(busy.baseUrl, { retries: 2 }));
      await expect(client.complete([{ role: 'user', content: 'hi' }])).rejects.toThrow(ModelBusyError);
      expect(busy.requests).toHaveLength(3);
    } finally {
      await busy.close();
    }
    const refused = await startFakeChat(() => ({ status: 400, body: 'no such model' }));
    try {
      const client = new ChatClient(settings(refused.baseUrl));
      await expect(client.complete([{ role: 'user', content: 'hi' }])).rejects.toThrow(ModelRequestError);
      expect(refused.requests).toHaveLength(1);
    } finally {
      await refused.close();
    }
  });

  it('a call past --call-timeout is retried, then reported as a timeout', async () => {
    const slow = await startFakeChat(
      () => new Promise<FakeAnswer>((resolve) => setTimeout(() => resolve({ text: 'late' }), 2_000)),
    );
    try {
      const client = new ChatClient(settings(slow.baseUrl, { callTimeoutMs: 100, retries: 1 }));
      await expect(client.complete([{ role: 'user', content: 'hi' }])).rejects.toThrow(/no reply within 100 ms/);
    } finally {
      await slow.close();
    }
  });

  it('sends repetition_penalty and stop_token_ids only when set (OpenAI refuses unknown fields)', async () => {
    const chat = await startFakeChat(() => ({ text: 'noop()' }));
    try {
      const messages = [{ role: 'user' as const, content: 'hi' }];
      await new ChatClient(settings(chat.baseUrl)).complete(messages);
      await new ChatClient(settings(chat.baseUrl, { repetitionPenalty: 1.15, stopTokenIds: [256, 258] })).complete(
        messages,
      );
      const [plain, local] = chat.requests as unknown as Record<string, unknown>[];
      expect(plain).not.toHaveProperty('repetition_penalty');
      expect(plain).not.toHaveProperty('stop_token_ids');
      expect(local).toMatchObject({ repetition_penalty: 1.15, stop_token_ids: [256, 258] });
    } finally {
      await chat.close();
    }
  });
});
