import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, startTinyServer } from './server-support.js';

// Issue 28's regex: under refa's state caps, and 75 s of DFA construction while every request waited.
const NESTED = (end: string) => `(((a|b){0,20}){0,20}){0,20}${end}`;

/** Asks GET /health every 20 ms until `until` says stop; the replies seen, in order. */
async function healthUntil(url: string, until: (status: number) => boolean, limitMs = 60_000) {
  const seen: { status: number; text: string }[] = [];
  const started = performance.now();
  for (;;) {
    const reply = await fetch(`${url}/health`);
    seen.push({ status: reply.status, text: await reply.text() });
    if (until(reply.status)) return seen;
    if (performance.now() - started > limitMs) throw new Error(`/health never changed: ${JSON.stringify(seen.at(-1))}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the preparation threads under a budget (two threads, regexes get 1 s and 9,000 states)', () => {
  let tiny: Awaited<ReturnType<typeof startTinyServer>>;
  beforeAll(async () => {
    tiny = await startTinyServer({ prepare: { threads: 2, budget: { maxStates: 9_000, maxMs: 1_000 } } });
  });
  afterAll(async () => tiny?.stop());

  it("refuses issue 28's regex once its compilation is over the time budget, says why, and refuses it again at once", async () => {
    const url = tiny.server.url;
    const started = performance.now();
    const slow = post(`${url}/v1/completions`, {
      prompt: 'x',
      max_tokens: 4,
      structured_outputs: { regex: NESTED('c') },
    });
    // The other thread is free: a long input to tokenize does not wait for the compilation.
    const other = await post(`${url}/tokenize`, { prompt: 'ab'.repeat(5_000), add_special_tokens: false });
    const otherMs = performance.now() - started;
    const refused = await slow;
    const firstMs = performance.now() - started;
    expect(other.status).toBe(200);
    expect(other.json.count).toBe(10_000);
    expect(otherMs).toBeLessThan(firstMs);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json.error.message).toMatch(
      /^structured_outputs\.regex ".*" takes longer than 1000 ms to compile \(this server's --max-regex-compile-ms\); simplify it/,
    );
    const again = performance.now();
    const cached = await post(`${url}/v1/completions`, {
      prompt: 'x',
      max_tokens: 4,
      structured_outputs: { regex: NESTED('c') },
    });
    expect(cached.status).toBe(400);
    expect(cached.json.error.message).toBe(refused.json.error.message);
    // Compiling took the whole budget (1 s); the cached refusal takes none of it.
    expect(performance.now() - again).toBeLessThan(firstMs / 2);
  }, 60_000);

  it('refuses a regex over the state budget by its states, and a JSON schema the same way without quoting it', async () => {
    const url = tiny.server.url;
    const reply = await post(`${url}/v1/completions`, {
      prompt: 'x',
      max_tokens: 4,
      structured_outputs: { regex: '(((a|b){0,22}){0,22}){0,22}c' },
    });
    expect(reply.status).toBe(400);
    expect(reply.json.error.message).toMatch(/needs more than 9000 NFA states \(this server's --max-regex-states\)/);
    const schema = await post(`${url}/v1/completions`, {
      prompt: 'x',
      max_tokens: 4,
      structured_outputs: { json: { type: 'string', maxLength: 10_000 } },
    });
    expect(schema.status).toBe(400);
    expect(schema.json.error.message).toMatch(/^the JSON schema needs more than 9000 NFA states/);
    // A regex within the budget still compiles and constrains.
    const fine = await post(`${url}/v1/completions`, {
      prompt: 'x',
      max_tokens: 8,
      structured_outputs: { regex: '[ab]{2,6}c' },
    });
    expect(fine.status, fine.text).toBe(200);
    expect(fine.json.choices[0].text).toMatch(/^[ab]{2,6}c$/);
  }, 60_000);

  it('caps /tokenize input as prompts are capped, texts and conversations alike', async () => {
    const url = tiny.server.url;
    const limit = tiny.ctx.prompts.maxPromptChars;
    expect(tiny.ctx.prompts.maxTokenizeChars).toBe(limit);
    const text = await post(`${url}/tokenize`, { prompt: 'x'.repeat(limit + 1) });
    expect(text.status).toBe(400);
    expect(text.json.error.message).toBe(
      `an input of ${limit + 1} characters is over this server's /tokenize limit of ${limit} (--max-tokenize-chars; by default what any prompt of max_model_len 4096 tokens may have); send a shorter one`,
    );
    expect(text.json.error.param).toBe('prompt');
    const chat = await post(`${url}/tokenize`, { messages: [{ role: 'user', content: 'x'.repeat(limit) }] });
    expect(chat.status).toBe(400);
    expect(chat.json.error.param).toBe('messages');
    const within = await post(`${url}/tokenize`, { prompt: 'x'.repeat(limit), add_special_tokens: false });
    expect(within.status).toBe(200);
  }, 60_000);
});

describe('a preparation thread past its deadline (one thread, 2 s per call, no regex time budget)', () => {
  let tiny: Awaited<ReturnType<typeof startTinyServer>>;
  beforeAll(async () => {
    tiny = await startTinyServer({ prepare: { threads: 1, timeoutMs: 2_000, budget: { maxMs: 600_000 } } });
  });
  afterAll(async () => tiny?.stop());

  it('is stopped and replaced; /health says 503 with the reason while a request waits behind it, then 200 again', async () => {
    const url = tiny.server.url;
    const ask = (end: string) =>
      post(`${url}/v1/completions`, { prompt: 'x', max_tokens: 4, structured_outputs: { regex: NESTED(end) } });
    const first = ask('c');
    const second = ask('d');
    const stalled = await healthUntil(url, (status) => status === 503);
    const reason = JSON.parse(stalled.at(-1)!.text);
    expect(reason.error.type).toBe('ServiceUnavailableError');
    expect(reason.error.message).toMatch(
      /^the preparation threads are stalled: a request has waited \d+ ms for one of 1 \(--prepare-timeout-ms 2000\)$/,
    );
    const trl = await (await fetch(`${url}/health/`)).json();
    expect(trl).toMatchObject({ status: 'unavailable', reason: expect.stringMatching(/stalled/) });
    const stopped = await first;
    expect(stopped.status).toBe(400);
    expect(stopped.json.error.message).toMatch(
      /^preparing this request took longer than 2000 ms \(this server's --prepare-timeout-ms\), so it was stopped/,
    );
    // Stopped at its own deadline, or refused for waiting as long (retryable): never left hanging.
    expect([400, 503]).toContain((await second).status);
    await healthUntil(url, (status) => status === 200);
    // The replacement thread works: a long input to tokenize goes to it.
    const after = await post(`${url}/tokenize`, { prompt: 'ab'.repeat(5_000), add_special_tokens: false });
    expect(after.status).toBe(200);
    expect(after.json.count).toBe(10_000);
    expect(tiny.logged.join('\n')).not.toMatch(/unexpected error/);
  }, 120_000);
});
