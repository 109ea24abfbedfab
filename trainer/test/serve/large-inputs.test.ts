import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, startTinyServer } from './server-support.js';

let tiny: Awaited<ReturnType<typeof startTinyServer>>;
let url: string;
beforeAll(async () => {
  // /tokenize takes inputs up to what a prompt may have by default; this file's 1.5M-character text is over that.
  tiny = await startTinyServer({ limits: { tokenizeChars: 2_000_000 } });
  url = tiny.server.url;
});
afterAll(async () => tiny?.stop());

/** Latencies of GET /health, asked every 10 ms until `work` settles. */
async function healthWhile<T>(work: Promise<T>): Promise<{ result: T; latencies: number[] }> {
  let done = false;
  const settled = work.finally(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    await (await fetch(`${url}/health`)).text();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { result: await settled, latencies };
}

describe('large inputs', () => {
  it('a prompt longer than any prompt of max_model_len tokens is refused by its length, before it is tokenized', async () => {
    const chars = tiny.ctx.prompts.maxPromptChars + 1;
    expect(tiny.ctx.prompts.maxPromptChars).toBe(4096 * '<|endoftext|>'.length * 4);
    const cases: [string, object][] = [
      ['/v1/completions', { prompt: 'x'.repeat(chars), max_tokens: 1 }],
      ['/v1/completions', { prompt: ['ok', 'x'.repeat(chars)], max_tokens: 1 }],
      ['/v1/chat/completions', { messages: [{ role: 'user', content: 'x'.repeat(chars) }], max_tokens: 1 }],
      ['/generate/', { prompts: ['x'.repeat(chars)], max_tokens: 1 }],
    ];
    for (const [path, body] of cases) {
      const reply = await post(url + path, body);
      expect(reply.status, path).toBe(400);
      expect(reply.json.error.message).toMatch(/characters cannot fit this model's context of 4096 tokens/);
    }
  });

  it('tokenizes a 1.5-million-character text off the event loop: /health keeps answering and a small completion is not queued behind it', async () => {
    const text = 'ab'.repeat(750_000);
    const big = post(`${url}/tokenize`, { prompt: text, add_special_tokens: false });
    const small = healthWhile(post(`${url}/v1/completions`, { prompt: 'hi', max_tokens: 2 }));
    const { result: reply, latencies } = await healthWhile(big);
    expect(reply.status).toBe(200);
    expect(reply.json.count).toBe(1_500_000);
    expect(reply.json.tokens.slice(0, 4)).toEqual(tiny.ctx.tokenizer.encode('abab'));
    // On the event loop, encoding this took seconds, and every probe waited for all of it.
    expect(latencies.length).toBeGreaterThan(3);
    expect(Math.max(...latencies), JSON.stringify(latencies.slice(0, 20))).toBeLessThan(1_000);
    const { result: completion } = await small;
    expect(completion.status).toBe(200);
  });

  it('long conversations and id lists give the same tokens and text off the event loop as on it', async () => {
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Click. '.repeat(20_000) },
    ];
    const reply = await post(`${url}/tokenize`, { messages });
    const expected = tiny.ctx.tokenizer.encodeChat(
      messages.map((m) => ({ ...m })),
      { addGenerationPrompt: true },
    );
    expect(reply.json.tokens).toEqual(expected);
    const text = await post(`${url}/detokenize`, { tokens: expected });
    expect(text.json.prompt).toBe(tiny.ctx.tokenizer.decode(expected));
  });

  it('compiles structured outputs off the event loop: an explosive regex does not hold /health', async () => {
    const started = performance.now();
    const { result: reply, latencies } = await healthWhile(
      post(`${url}/v1/completions`, { prompt: 'x', max_tokens: 20, structured_outputs: { regex: '(a|b)*a(a|b){12}' } }),
    );
    const took = performance.now() - started;
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.choices[0].text).toMatch(/^(a|b)*a(a|b){12}$/);
    // On the event loop, the DFA construction held every probe for most of the request.
    expect(Math.max(...latencies), `request ${took.toFixed(0)} ms`).toBeLessThan(took / 2);
  });

  it('refuses a schema whose regex would be huge, or whose automaton explodes, without quoting the regex back', async () => {
    const wide = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`p${i}`, { type: 'integer' }])),
    };
    const tooLarge = await post(`${url}/v1/completions`, {
      prompt: 'x',
      max_tokens: 4,
      structured_outputs: { json: wide },
    });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.json.error.message).toMatch(
      /^the JSON schema is too large: it compiles to a regex of \d+ characters \(the limit is 100000\)/,
    );
    const exploding = await post(`${url}/v1/completions`, {
      prompt: 'x',
      max_tokens: 4,
      structured_outputs: { regex: `(a|b)*a(a|b){20}${'c'.repeat(500)}` },
    });
    expect(exploding.status).toBe(400);
    expect(exploding.json.error.message).toMatch(
      /needs more than 10000 DFA states \(this server's --max-regex-states\)/,
    );
    expect(exploding.text.length).toBeLessThan(600);
  });
});
