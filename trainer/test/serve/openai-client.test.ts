import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTinyServer } from './server-support.js';

let tiny: Awaited<ReturnType<typeof startTinyServer>>;
let client: OpenAI;
beforeAll(async () => {
  tiny = await startTinyServer();
  client = new OpenAI({ baseURL: `${tiny.server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});
afterAll(async () => tiny.stop());

describe('the official openai npm client, unchanged', () => {
  it('lists models, completes, chats with logprobs, and streams', async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['tiny']);
    const completion = await client.completions.create({
      model: 'tiny',
      prompt: 'Hello',
      max_tokens: 4,
      temperature: 0,
      logprobs: 1,
    });
    expect(completion.choices[0]!.logprobs!.token_logprobs).toHaveLength(completion.usage!.completion_tokens);
    const chat = await client.chat.completions.create({
      model: 'tiny',
      messages: [{ role: 'user', content: 'Hi' }],
      max_completion_tokens: 4,
      temperature: 0,
      logprobs: true,
      top_logprobs: 2,
    });
    const content = chat.choices[0]!.logprobs!.content!;
    expect(content.length).toBe(chat.usage!.completion_tokens);
    expect(content[0]!.top_logprobs).toHaveLength(2);
    expect(typeof chat.choices[0]!.message.content).toBe('string');
    const stream = await client.chat.completions.create({
      model: 'tiny',
      messages: [{ role: 'user', content: 'Hi' }],
      max_completion_tokens: 4,
      temperature: 0,
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe(chat.choices[0]!.message.content);
  });

  it("surfaces server errors as the client's typed errors", async () => {
    await expect(client.completions.create({ model: 'missing', prompt: 'x', max_tokens: 1 })).rejects.toBeInstanceOf(
      OpenAI.NotFoundError,
    );
    await expect(
      client.completions.create({ model: 'tiny', prompt: 'x', max_tokens: 1, temperature: -2 }),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
  });
});
