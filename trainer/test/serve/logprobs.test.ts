import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogprobsMode } from '../../src/generate/sampler.js';
import { post, startTinyServer } from './server-support.js';

type Tiny = Awaited<ReturnType<typeof startTinyServer>>;
const servers = new Map<LogprobsMode, Tiny>();
beforeAll(async () => {
  for (const mode of ['raw_logprobs', 'processed_logprobs', 'raw_logits'] as const)
    servers.set(mode, await startTinyServer({ logprobsMode: mode }));
});
afterAll(async () => Promise.all([...servers.values()].map((s) => s.stop())));

const url = (mode: LogprobsMode) => servers.get(mode)!.server.url;
const complete = (mode: LogprobsMode, body: object) =>
  post(`${url(mode)}/v1/completions`, {
    prompt: 'Hello there',
    max_tokens: 6,
    seed: 4,
    ignore_eos: true,
    return_token_ids: true,
    ...body,
  });

/** The raw logprobs of `completion` after `prompt`, as prompt_logprobs scores them. */
async function scored(
  mode: LogprobsMode,
  prompt: number[],
  completion: number[],
  temperature: number,
): Promise<number[]> {
  const reply = await post(`${url(mode)}/v1/completions`, {
    prompt: [...prompt, ...completion],
    max_tokens: 1,
    temperature,
    prompt_logprobs: 0,
  });
  const block = reply.json.choices[0].prompt_logprobs as (Record<string, { logprob: number }> | null)[];
  return completion.map((id, i) => block[prompt.length + i]![String(id)]!.logprob);
}

describe('--logprobs-mode', () => {
  it('raw_logprobs (the default): sampled logprobs are the model’s at any temperature, and prompt logprobs never depend on it', async () => {
    for (const temperature of [0.5, 1, 1.7]) {
      const reply = await complete('raw_logprobs', { temperature, logprobs: 0 });
      const [choice] = reply.json.choices;
      const expected = await scored('raw_logprobs', choice.prompt_token_ids, choice.token_ids, 1);
      choice.logprobs.token_logprobs.forEach((lp: number, i: number) => expect(lp).toBeCloseTo(expected[i]!, 5));
      expect(await scored('raw_logprobs', choice.prompt_token_ids, choice.token_ids, temperature)).toEqual(expected);
    }
  });

  it('processed_logprobs: the distribution the token was drawn from (temperature and filters applied)', async () => {
    const [raw, processed] = await Promise.all([
      complete('raw_logprobs', { temperature: 0.5, logprobs: 3 }),
      complete('processed_logprobs', { temperature: 0.5, logprobs: 3 }),
    ]);
    expect(processed.json.choices[0].token_ids).toEqual(raw.json.choices[0].token_ids);
    // At T = 0.5 the drawn tokens are likelier than under the model's own distribution.
    const sum = (lps: number[]) => lps.reduce((a, b) => a + b, 0);
    expect(sum(processed.json.choices[0].logprobs.token_logprobs)).toBeGreaterThan(
      sum(raw.json.choices[0].logprobs.token_logprobs),
    );
    // Top-k 1 leaves one token: probability 1; the others are ruled out, sent as vLLM sends −∞.
    const only = await complete('processed_logprobs', { temperature: 1, top_k: 1, logprobs: 2 });
    expect(only.json.choices[0].logprobs.token_logprobs).toEqual([0, 0, 0, 0, 0, 0]);
    for (const top of only.json.choices[0].logprobs.top_logprobs) expect(Object.values(top).sort()).toEqual([-9999, 0]);
  });

  it('raw_logits: logits, whose differences are the raw logprobs’ differences', async () => {
    const [raw, logits] = await Promise.all([
      complete('raw_logprobs', { temperature: 0, logprobs: 3, return_tokens_as_token_ids: true }),
      complete('raw_logits', { temperature: 0, logprobs: 3, return_tokens_as_token_ids: true }),
    ]);
    raw.json.choices[0].logprobs.top_logprobs.forEach((top: Record<string, number>, t: number) => {
      const other = logits.json.choices[0].logprobs.top_logprobs[t] as Record<string, number>;
      const [a, b] = Object.keys(top);
      expect(Object.keys(other)).toEqual(Object.keys(top));
      expect(other[a!]! - other[b!]!).toBeCloseTo(top[a!]! - top[b!]!, 4);
      expect(other[a!]).not.toBeCloseTo(top[a!]!, 2);
    });
  });
});

describe('return_tokens_as_token_ids', () => {
  it('names tokens token_id:N, so byte tokens that all decode to U+FFFD stay apart in top-logprob lists', async () => {
    const body = { temperature: 0, logprobs: 20, max_tokens: 8 };
    const byText = await complete('raw_logprobs', body);
    const byId = await complete('raw_logprobs', { ...body, return_tokens_as_token_ids: true });
    const sizes = (reply: { json: any }) =>
      (reply.json.choices[0].logprobs.top_logprobs as object[]).map((top) => Object.keys(top).length);
    // By text, the tiny model's byte tokens ≥ 0x80 collide under one key.
    expect(Math.min(...sizes(byText))).toBeLessThan(20);
    expect(sizes(byId)).toEqual(Array(8).fill(20));
    const choice = byId.json.choices[0];
    expect(choice.logprobs.tokens).toEqual(choice.token_ids.map((id: number) => `token_id:${id}`));
    for (const top of choice.logprobs.top_logprobs)
      for (const key of Object.keys(top)) expect(key).toMatch(/^token_id:\d+$/);
    // Text offsets still index the text.
    expect(choice.logprobs.text_offset).toEqual(byText.json.choices[0].logprobs.text_offset);
  });

  it('in chat replies too, streamed or not, and as the server default (--return-tokens-as-token-ids)', async () => {
    const byDefault = await startTinyServer({ returnTokensAsTokenIds: true });
    try {
      const chat = {
        messages: [{ role: 'user', content: 'hi' }],
        max_tokens: 3,
        temperature: 0,
        logprobs: true,
        top_logprobs: 2,
        return_token_ids: true,
      };
      const reply = await post(`${byDefault.server.url}/v1/chat/completions`, chat);
      const content = reply.json.choices[0].logprobs.content as {
        token: string;
        bytes: number[];
        top_logprobs: { token: string }[];
      }[];
      expect(content.map((c) => c.token)).toEqual(
        reply.json.choices[0].token_ids.map((id: number) => `token_id:${id}`),
      );
      for (const c of content) for (const t of c.top_logprobs) expect(t.token).toMatch(/^token_id:\d+$/);
      const optedOut = await post(`${byDefault.server.url}/v1/chat/completions`, {
        ...chat,
        return_tokens_as_token_ids: false,
      });
      expect(optedOut.json.choices[0].logprobs.content[0].token).not.toMatch(/^token_id:/);
      const streamed = await fetch(`${byDefault.server.url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ ...chat, stream: true }),
      });
      const frames = (await streamed.text())
        .split('\n\n')
        .filter((f) => f.startsWith('data: {'))
        .map((f) => JSON.parse(f.slice(6)));
      const tokens = frames.flatMap((f) =>
        f.choices.flatMap(
          (c: { logprobs: { content: { token: string }[] } | null }) => c.logprobs?.content.map((x) => x.token) ?? [],
        ),
      );
      expect(tokens).toEqual(content.map((c) => c.token));
    } finally {
      await byDefault.stop();
    }
  });
});
