import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, startTinyServer } from './server-support.js';

// Inputs that once reached the engine and failed there (500s, SSE errors after a 200, a token
// generated for max_tokens 0): each must be refused with a 400 that says why, before any work.
let tiny: Awaited<ReturnType<typeof startTinyServer>>;
let url: string;
beforeAll(async () => {
  tiny = await startTinyServer({ maxBatch: 4, maxWaiting: 4 });
  url = tiny.server.url;
});
afterAll(async () => tiny?.stop());

async function expect400(path: string, body: unknown, message: RegExp): Promise<void> {
  const reply = await post(url + path, body);
  expect(reply.status, reply.text).toBe(400);
  expect(reply.json.error).toMatchObject({ type: 'BadRequestError', code: 400 });
  expect(reply.json.error.message).toMatch(message);
}

/** A $ref chain `depth` definitions long: shallow JSON, deep expansion. */
function refChain(depth: number): object {
  const defs: Record<string, object> = {};
  for (let i = 0; i < depth; i++)
    defs[`d${i}`] = i === depth - 1 ? { type: 'string', maxLength: 2 } : { $ref: `#/$defs/d${i + 1}` };
  return { $defs: defs, $ref: '#/$defs/d0' };
}

describe('requests refused with a 400 that says why', () => {
  it.each([
    [{ seed: 1.5 }, /generation_kwargs\.seed/],
    [{ seed: -3 }, /generation_kwargs\.seed/],
    [{ seed: '7' }, /generation_kwargs\.seed/],
    [{ temperature: -1 }, /generation_kwargs\.temperature/],
    [{ max_tokens: 0 }, /max_tokens must be at least 1, got 0/],
  ])('/generate/ with generation_kwargs %j', async (kwargs, message) => {
    await expect400('/generate/', { prompts: ['ab'], max_tokens: 2, generation_kwargs: kwargs }, message);
  });

  it('/generate/ takes the largest seed with n > 1 (seed + i stays a valid seed)', async () => {
    const reply = await post(`${url}/generate/`, {
      prompts: ['ab'],
      n: 2,
      max_tokens: 2,
      generation_kwargs: { seed: Number.MAX_SAFE_INTEGER },
    });
    expect(reply.status, reply.text).toBe(200);
    const again = await post(`${url}/v1/completions`, {
      prompt: 'ab',
      n: 2,
      max_tokens: 2,
      seed: Number.MAX_SAFE_INTEGER,
    });
    expect(again.status, again.text).toBe(200);
  });

  it('a JSON schema whose $ref chain is 5,000 deep', async () => {
    await expect400(
      '/v1/completions',
      { prompt: 'x', max_tokens: 4, structured_outputs: { json: refChain(5000) } },
      /nests more than 64 levels/,
    );
    const fine = await post(`${url}/v1/completions`, {
      prompt: 'x',
      max_tokens: 8,
      structured_outputs: { json: refChain(20) },
    });
    expect(fine.status, fine.text).toBe(200);
  });

  it.each([
    ['/v1/completions', { prompt: 'x' }],
    ['/v1/chat/completions', { messages: [{ role: 'user', content: 'x' }] }],
  ])('%s streamed, with a structured output longer than max_tokens: a 400 as when not streamed', async (path, body) => {
    const request = { ...body, max_tokens: 3, structured_outputs: { choice: ['a long answer'] } };
    for (const stream of [false, true])
      await expect400(
        path,
        { ...request, stream },
        /the structured output needs at least 13 tokens but max_tokens is 3/,
      );
  });

  it.each([
    ['/v1/completions', { prompt: 'x', max_tokens: 0 }],
    ['/v1/completions', { prompt: 'x', max_tokens: 0, stream: true }],
    ['/v1/chat/completions', { messages: [{ role: 'user', content: 'x' }], max_tokens: 0 }],
    ['/v1/chat/completions', { messages: [{ role: 'user', content: 'x' }], max_completion_tokens: 0 }],
  ])('%s with %j (vLLM: max_tokens must be at least 1)', async (path, body) => {
    await expect400(path, body, /max_tokens must be at least 1, got 0/);
  });

  it('echo with max_tokens 0 scores the prompt and generates nothing (vLLM echo without generation)', async () => {
    const reply = await post(`${url}/v1/completions`, {
      prompt: 'Hi there',
      max_tokens: 0,
      echo: true,
      logprobs: 1,
      return_token_ids: true,
    });
    expect(reply.status, reply.text).toBe(200);
    const [choice] = reply.json.choices;
    expect(choice.text).toBe('Hi there');
    expect(choice.token_ids).toEqual([]);
    expect(choice.logprobs.tokens).toHaveLength(8);
    expect(choice.logprobs.token_logprobs[0]).toBeNull();
    expect(reply.json.usage).toMatchObject({ prompt_tokens: 8, completion_tokens: 0 });
  });

  it.each([false, true])(
    'on an idle server, a request that can never fit the queue (stream: %s), not a retryable 503',
    async (stream) => {
      expect(tiny.ctx.engine.room).toBe(8);
      await expect400(
        '/v1/completions',
        { prompt: ['a', 'b', 'c'], n: 3, max_tokens: 1, stream },
        /needs 9 sequences at once \(3 prompts × n = 3\), but this server holds at most 8/,
      );
      expect(tiny.ctx.engine.stats.rejected).toBe(0);
    },
  );
});
