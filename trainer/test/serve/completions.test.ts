import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, startTinyServer } from './server-support.js';

let tiny: Awaited<ReturnType<typeof startTinyServer>>;
let url: string;
beforeAll(async () => {
  tiny = await startTinyServer({ limits: { maxN: 4, maxTokens: 64, bodyBytes: 4096 } });
  url = tiny.server.url;
});
afterAll(async () => tiny.stop());

const sampling = { temperature: 0, max_tokens: 5, ignore_eos: true };

describe('POST /v1/completions', () => {
  it('takes a string, strings, token ids and lists of ids; returns token ids, logprobs and usage', async () => {
    const ids = tiny.ctx.tokenizer.encode('Hello');
    const one = await post(`${url}/v1/completions`, {
      model: 'tiny',
      prompt: 'Hello',
      ...sampling,
      logprobs: 2,
      return_token_ids: true,
    });
    expect(one.status).toBe(200);
    const choice = one.json.choices[0];
    expect(one.json.object).toBe('text_completion');
    expect(choice.prompt_token_ids).toEqual(ids);
    expect(choice.token_ids).toHaveLength(5);
    expect(choice.logprobs.token_logprobs).toHaveLength(5);
    expect(Object.keys(choice.logprobs.top_logprobs[0])).toHaveLength(2);
    expect(choice.finish_reason).toBe('length');
    expect(one.json.usage).toEqual({
      prompt_tokens: ids.length,
      completion_tokens: 5,
      total_tokens: ids.length + 5,
      prompt_tokens_details: { cached_tokens: 0 },
    });
    const byIds = await post(`${url}/v1/completions`, { prompt: ids, ...sampling, return_token_ids: true });
    expect(byIds.json.choices[0].token_ids).toEqual(choice.token_ids);
    const many = await post(`${url}/v1/completions`, { prompt: [ids, [1, 2, 3]], ...sampling, n: 2 });
    expect(many.json.choices.map((c: { index: number }) => c.index)).toEqual([0, 1, 2, 3]);
    expect(many.json.choices[0].text).toBe(choice.text);
    const strings = await post(`${url}/v1/completions`, { prompt: ['Hello', 'abc'], ...sampling });
    expect(strings.json.choices[0].text).toBe(choice.text);
  });

  it('echo puts the prompt text and its logprobs (first null) before the completion', async () => {
    const r = await post(`${url}/v1/completions`, { prompt: 'Hi there', ...sampling, echo: true, logprobs: 0 });
    const c = r.json.choices[0];
    expect(c.text.startsWith('Hi there')).toBe(true);
    expect(c.logprobs.tokens).toHaveLength(8 + 5);
    expect(c.logprobs.token_logprobs[0]).toBeNull();
    expect(c.logprobs.token_logprobs[1]).toBeLessThan(0);
  });

  it("prompt_logprobs gives vLLM's per-token dicts: the prompt token with its rank, plus the top k, agreeing with echo's logprobs", async () => {
    const ids = tiny.ctx.tokenizer.encode('Hi there');
    const scored = await post(`${url}/v1/completions`, { prompt: 'Hi there', ...sampling, prompt_logprobs: 2 });
    const echoed = await post(`${url}/v1/completions`, { prompt: 'Hi there', ...sampling, echo: true, logprobs: 1 });
    const block = scored.json.choices[0].prompt_logprobs as (Record<
      string,
      { logprob: number; rank: number; decoded_token: string }
    > | null)[];
    expect(block).toHaveLength(ids.length);
    expect(block[0]).toBeNull();
    block.slice(1).forEach((entry, i) => {
      const id = ids[i + 1]!;
      const mine = entry![String(id)]!;
      expect(mine.decoded_token).toBe(tiny.ctx.tokenizer.decode([id]));
      expect(mine.logprob).toBeCloseTo(echoed.json.choices[0].logprobs.token_logprobs[i + 1], 6);
      const ranked = Object.values(entry!).filter((e) => e.rank <= 2);
      expect(ranked.map((e) => e.rank).sort()).toEqual([1, 2]);
      // The rank counts the tokens more likely than this one.
      const better = Object.values(entry!).filter((e) => e.logprob > mine.logprob).length;
      expect(mine.rank).toBe(mine.rank <= 2 ? better + 1 : mine.rank);
      expect(mine.rank).toBeGreaterThan(better);
    });
    expect(Object.keys(echoed.json.choices[0].logprobs.top_logprobs[1])).toHaveLength(1);
  });

  it('streams SSE chunks whose text adds up to the non-streamed text, then usage and [DONE]', async () => {
    const plain = await post(`${url}/v1/completions`, { prompt: 'abc', ...sampling });
    const res = await fetch(`${url}/v1/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'abc', ...sampling, stream: true, stream_options: { include_usage: true } }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const frames = (await res.text())
      .split('\n\n')
      .filter(Boolean)
      .map((f) => f.replace(/^data: /, ''));
    expect(frames.at(-1)).toBe('[DONE]');
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f));
    expect(chunks.at(-1).usage.completion_tokens).toBe(5);
    expect(chunks.flatMap((c) => c.choices.map((x: { text: string }) => x.text)).join('')).toBe(
      plain.json.choices[0].text,
    );
  });

  it('refuses bad input with a 4xx in OpenAI error shape and keeps serving', async () => {
    const cases: [unknown, number, RegExp][] = [
      [{ prompt: 'x', temperature: -1 }, 400, /temperature/],
      [{ prompt: 'x', n: 99 }, 400, /n = 99/],
      [{ prompt: 'x', max_tokens: 1000 }, 400, /max_tokens/],
      [{ prompt: [[]] }, 400, /prompt/],
      [{ prompt: [999999] }, 400, /vocabulary/],
      [{ prompt: 'x', model: 'nope' }, 404, /nope/],
      ['{not json', 400, /JSON/],
      [{ prompt: 'x'.repeat(5000) }, 413, /limit/],
    ];
    for (const [body, status, message] of cases) {
      const r = await post(`${url}/v1/completions`, body);
      expect(r.status, JSON.stringify(r.json)).toBe(status);
      expect(r.json.error.message).toMatch(message);
      expect(typeof r.json.error.type).toBe('string');
    }
    expect((await fetch(`${url}/nope`)).status).toBe(404);
    expect((await post(`${url}/v1/completions`, { prompt: 'ok', ...sampling })).status).toBe(200);
  });
});

describe('structured outputs over HTTP', () => {
  it('structured_outputs.choice and .regex constrain /v1/completions and TRL structured_outputs_regex', async () => {
    const choice = await post(`${url}/v1/completions`, {
      prompt: 'Answer:',
      max_tokens: 10,
      temperature: 1,
      seed: 4,
      structured_outputs: { choice: ['red', 'green'] },
    });
    expect(['red', 'green']).toContain(choice.json.choices[0].text);
    const regex = await post(`${url}/v1/completions`, {
      prompt: 'n=',
      max_tokens: 6,
      temperature: 1,
      seed: 5,
      structured_outputs: { regex: '[0-9]{2,4}' },
    });
    expect(regex.json.choices[0].text).toMatch(/^[0-9]{2,4}$/);
    const trl = await post(`${url}/generate/`, {
      prompts: ['x'],
      max_tokens: 5,
      temperature: 1,
      structured_outputs_regex: 'ab?c',
    });
    expect(tiny.ctx.tokenizer.decode(trl.json.completion_ids[0], { skipSpecialTokens: true })).toMatch(/^ab?c$/);
    expect((await post(`${url}/v1/completions`, { prompt: 'x', structured_outputs: { regex: '(' } })).status).toBe(400);
  });

  it('JSON schemas arrive as structured_outputs.json, OpenAI response_format or guided_json text, and the output parses to match', async () => {
    const schema = {
      type: 'object',
      properties: { action: { enum: ['click', 'fill'] }, bid: { type: 'string', maxLength: 3 } },
      required: ['action', 'bid'],
    };
    const chat = (extra: object) =>
      post(`${url}/v1/chat/completions`, {
        messages: [{ role: 'user', content: 'act' }],
        max_tokens: 40,
        temperature: 1,
        seed: 9,
        ...extra,
      });
    const viaFormat = await chat({ response_format: { type: 'json_schema', json_schema: { name: 'act', schema } } });
    expect(viaFormat.status).toBe(200);
    const parsed = JSON.parse(viaFormat.json.choices[0].message.content);
    expect(['click', 'fill']).toContain(parsed.action);
    expect(typeof parsed.bid).toBe('string');
    const viaStructured = await chat({ structured_outputs: { json: schema } });
    expect(viaStructured.json.choices[0].message.content).toBe(viaFormat.json.choices[0].message.content);
    const viaGuided = await post(`${url}/v1/completions`, {
      prompt: 'act',
      max_tokens: 40,
      temperature: 1,
      seed: 9,
      guided_json: JSON.stringify(schema),
    });
    expect(Object.keys(JSON.parse(viaGuided.json.choices[0].text)).slice(0, 2)).toEqual(['action', 'bid']);
    const anyObject = await chat({ response_format: { type: 'json_object' } });
    expect(typeof JSON.parse(anyObject.json.choices[0].message.content)).toBe('object');
  });

  it.each([
    [
      { structured_outputs: { regex: 'a' }, response_format: { type: 'json_object' } },
      'give structured outputs in one field, not in structured_outputs and response_format',
    ],
    [{ structured_outputs: { grammar: 'root ::= "a"' } }, 'structured_outputs.grammar is not supported'],
    [{ guided_json: '{not json' }, 'a JSON schema given as text must parse as JSON'],
    [
      { response_format: { type: 'json_schema', json_schema: { schema: { type: 'string', pattern: 'x' } } } },
      'the keyword "pattern" is not supported',
    ],
    [
      { structured_outputs: { choice: ['a long answer'] }, max_tokens: 3 },
      'the structured output needs at least 13 tokens but max_tokens is 3',
    ],
  ])('refuses %j with a 400 that says why', async (extra, message) => {
    const res = await post(`${url}/v1/completions`, { prompt: 'x', max_tokens: 8, ...extra });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain(message);
    expect(res.json.error.type).toBe('BadRequestError');
  });
});

describe('health, models, metrics, TRL', () => {
  it('answers /health, /health/, /get_world_size/, /v1/models and /metrics', async () => {
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect(await (await fetch(`${url}/health/`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${url}/get_world_size/`)).json()).toEqual({ world_size: 1 });
    const models = await (await fetch(`${url}/v1/models`)).json();
    expect(models).toMatchObject({
      object: 'list',
      data: [{ id: 'tiny', object: 'model', parent: null, max_model_len: 4096 }],
    });
    const text = await (await fetch(`${url}/metrics`)).text();
    for (const name of [
      'num_requests_waiting',
      'batch_size',
      'decode_tokens_per_second',
      'time_to_first_token_seconds_bucket',
    ])
      expect(text).toContain(`gauntlet:${name}`);
  });

  it("POST /generate/ returns TRL's shapes, completions grouped per prompt, logprobs [seq][tok][k]", async () => {
    const r = await post(`${url}/generate/`, {
      prompts: ['ab', 'cde'],
      n: 2,
      temperature: 1,
      top_k: -1,
      max_tokens: 4,
      logprobs: 1,
      generation_kwargs: { seed: 3, ignore_eos: true },
    });
    expect(r.status).toBe(200);
    expect(r.json.prompt_ids).toEqual([tiny.ctx.tokenizer.encode('ab'), tiny.ctx.tokenizer.encode('cde')]);
    expect(r.json.completion_ids).toHaveLength(4);
    expect(r.json.logprobs[0]).toHaveLength(4);
    expect(r.json.logprobs[0][0]).toHaveLength(2);
    r.json.completion_ids.forEach((ids: number[], s: number) =>
      ids.forEach((id, t) => expect(r.json.logprob_token_ids[s][t][0]).toBe(id)),
    );
  });
});
