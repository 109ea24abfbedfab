import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_REGEX, actionRegex, parseAction } from '@gauntlet/proto/agent';
import { PolicyClient, PolicyRequestError, PolicyUnavailableError } from '@gauntlet/proto/policy-server';
import { spawnPolicyServer, type Spawned } from './services.js';

// proto's PolicyClient against a real `gauntlet-trainer serve` process: the same calls a rollout
// worker makes against vLLM.
let server: Spawned;
let client: PolicyClient;
beforeAll(async () => {
  server = await spawnPolicyServer();
  client = new PolicyClient(`${server.url}/v1`, { timeoutMs: 30_000 });
});
afterAll(() => server?.stop());

const messages = [
  { role: 'system' as const, content: 'Act.' },
  { role: 'user' as const, content: 'Click the button.' },
];

describe('PolicyClient ↔ gauntlet-trainer serve', () => {
  it('lists the model and round-trips text through /tokenize and /detokenize', async () => {
    const models = await client.models();
    expect(models.data.map((m) => m.id)).toEqual(['tiny']);
    const { tokens, count, max_model_len } = await client.tokenize({
      model: 'tiny',
      prompt: 'click me',
      add_special_tokens: false,
    });
    expect(count).toBe(tokens.length);
    expect(max_model_len).toBe(models.data[0]!.max_model_len);
    expect((await client.detokenize({ tokens })).prompt).toBe('click me');
  });

  it('generates from a token-id prompt with ids and logprobs; the same seed gives the same tokens', async () => {
    const { tokens } = await client.tokenize({ messages, add_generation_prompt: true });
    const request = { model: 'tiny', promptIds: tokens, maxTokens: 6, temperature: 1, seed: 11 };
    const first = await client.generate(request);
    expect(first.model).toBe('tiny');
    expect(first.tokenIds.length).toBeGreaterThan(0);
    expect(first.logprobs).toHaveLength(first.tokenIds.length);
    for (const lp of first.logprobs) expect(lp).toBeLessThanOrEqual(0);
    // The repeat hits the prefix cache: same tokens, log-probs equal up to float32 rounding.
    const again = await client.generate(request);
    expect({ ...again, logprobs: [] }).toEqual({ ...first, logprobs: [] });
    again.logprobs.forEach((lp, i) => expect(lp).toBeCloseTo(first.logprobs[i]!, 6));
    const chat = await client.chatCompletions({ messages, max_tokens: 1, temperature: 0, return_token_ids: true });
    expect(chat.prompt_token_ids).toEqual(tokens);
  });

  it('constrained by the action regex, every reply is an action the parser takes as is', async () => {
    const { tokens } = await client.tokenize({ messages, add_generation_prompt: true });
    for (const seed of [1, 2, 3]) {
      const reply = await client.generate({
        promptIds: tokens,
        maxTokens: 40,
        temperature: 1,
        seed,
        regex: ACTION_REGEX,
      });
      expect(new RegExp(`^(?:${ACTION_REGEX})$`).test(reply.text), reply.text).toBe(true);
      expect(parseAction(reply.text)).toEqual({ action: reply.text, fallback: false });
    }
  });

  it("constrained to the page's bids, a reply only ever names one of them", async () => {
    const { tokens } = await client.tokenize({ messages, add_generation_prompt: true });
    const regex = actionRegex({ names: ['click', 'fill'], bids: ['12', '13', '27'] });
    const named = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const reply = await client.generate({ promptIds: tokens, maxTokens: 40, temperature: 1, seed, regex });
      expect(new RegExp(`^(?:${regex})$`).test(reply.text), reply.text).toBe(true);
      named.add(/^\w+\(['"](\d+)['"]/.exec(reply.text)![1]!);
    }
    expect([...named].every((bid) => ['12', '13', '27'].includes(bid))).toBe(true);
  });

  it('a wrong model is a PolicyRequestError at once; a server gone is PolicyUnavailableError after its retries', async () => {
    const wrong = await client
      .generate({ model: 'nope', promptIds: [1, 2], maxTokens: 1 })
      .catch((error: unknown) => error);
    expect(wrong).toBeInstanceOf(PolicyRequestError);
    expect(wrong).toMatchObject({ status: 404, message: expect.stringMatching(/The model `nope` does not exist/) });
    const gone = await spawnPolicyServer();
    const orphan = new PolicyClient(gone.url, { retry: { attempts: 2, initialDelayMs: 10, maxDelayMs: 20 } });
    await gone.stop();
    await expect(orphan.models()).rejects.toBeInstanceOf(PolicyUnavailableError);
  });
});
