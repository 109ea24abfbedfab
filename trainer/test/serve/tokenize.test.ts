import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detokenizeReply, tokenizeReply } from '@gauntlet/proto/policy-server';
import { post, startTinyServer } from './server-support.js';

let tiny: Awaited<ReturnType<typeof startTinyServer>>;
let url: string;
beforeAll(async () => {
  tiny = await startTinyServer();
  url = tiny.server.url;
});
afterAll(async () => tiny.stop());

const messages = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Click the button.' },
];

describe('POST /tokenize and /detokenize (vLLM shape)', () => {
  it('tokenizes a prompt: count, max_model_len and ids, optionally with token strings', async () => {
    const r = await post(`${url}/tokenize`, { model: 'tiny', prompt: 'Hello', return_token_strs: true });
    expect(r.status).toBe(200);
    expect(tokenizeReply.parse(r.json)).toEqual(r.json);
    const ids = tiny.ctx.tokenizer.encode('Hello', { addSpecialTokens: true });
    expect(r.json).toEqual({
      count: ids.length,
      max_model_len: tiny.ctx.limits.maxModelLen,
      tokens: ids,
      token_strs: ids.map((id) => tiny.ctx.tokenizer.idToToken(id)),
    });
    expect((await post(`${url}/tokenize`, { prompt: 'Hello', add_special_tokens: false })).json.tokens).toEqual(
      tiny.ctx.tokenizer.encode('Hello'),
    );
  });

  it('tokenizes messages exactly as /v1/chat/completions renders them', async () => {
    const r = await post(`${url}/tokenize`, { messages });
    const chat = await post(`${url}/v1/chat/completions`, {
      messages,
      max_tokens: 1,
      temperature: 0,
      return_token_ids: true,
    });
    expect(r.json.tokens).toEqual(chat.json.prompt_token_ids);
    const withoutPrompt = await post(`${url}/tokenize`, { messages, add_generation_prompt: false });
    expect(r.json.tokens.slice(0, withoutPrompt.json.count)).toEqual(withoutPrompt.json.tokens);
    expect(tiny.ctx.tokenizer.decode(r.json.tokens.slice(withoutPrompt.json.count))).toBe('<|im_start|>assistant\n');
  });

  it('detokenizes ids back to text, special tokens included', async () => {
    const { json } = await post(`${url}/tokenize`, { messages });
    const r = await post(`${url}/detokenize`, { model: 'tiny', tokens: json.tokens });
    expect(r.status).toBe(200);
    expect(detokenizeReply.parse(r.json)).toEqual({
      prompt:
        '<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nClick the button.<|im_end|>\n<|im_start|>assistant\n',
    });
  });

  it.each([
    ['/tokenize', { model: 'nope', prompt: 'x' }, 404, /The model `nope` does not exist/],
    ['/detokenize', { model: 'nope', tokens: [1] }, 404, /The model `nope` does not exist/],
    ['/detokenize', { tokens: [1, 1_000_000] }, 400, /tokens\[1\] = 1000000 is outside the vocabulary/],
    ['/detokenize', { tokens: [-1] }, 400, /'tokens.0'/],
    ['/tokenize', { prompt: 5 }, 400, /invalid tokenize request: 'prompt'/],
    ['/tokenize', { messages: [] }, 400, /'messages'/],
    ['/tokenize', { messages, continue_final_message: true }, 400, /continue_final_message is not supported/],
  ])('%s %j → %i', async (path, body, status, message) => {
    const r = await post(`${url}${path}`, body);
    expect(r.status).toBe(status);
    expect(r.json.error.message).toMatch(message);
  });
});
