import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { PolicyClient, PolicyRequestError } from '@gauntlet/proto/policy-server';
import { startTinyServer } from './server-support.js';

let tiny: Awaited<ReturnType<typeof startTinyServer>>;
let url: string;
beforeAll(async () => {
  tiny = await startTinyServer({ apiKeys: ['first-key', 'second key'] });
  url = tiny.server.url;
});
afterAll(async () => tiny?.stop());

const call = (method: string, path: string, authorization?: string, body?: unknown) =>
  fetch(url + path, {
    method,
    headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const ROUTES: [string, string, unknown?][] = [
  ['POST', '/v1/completions', { prompt: 'x', max_tokens: 1 }],
  ['POST', '/v1/chat/completions', { messages: [{ role: 'user', content: 'x' }], max_tokens: 1 }],
  ['GET', '/v1/models'],
  ['POST', '/tokenize', { prompt: 'x' }],
  ['POST', '/detokenize', { tokens: [65] }],
  ['GET', '/metrics'],
  ['POST', '/generate/', { prompts: ['x'], max_tokens: 1 }],
  ['GET', '/get_world_size/'],
  ['POST', '/reset_prefix_cache/', {}],
  ['POST', '/v1/unload_lora_adapter', { lora_name: 'x' }],
  ['GET', '/no-such-route'],
];

describe('--api-key', () => {
  it('leaves the health probes open', async () => {
    expect((await call('GET', '/health')).status).toBe(200);
    expect((await call('GET', '/health/')).status).toBe(200);
  });

  it.each(ROUTES)(
    '%s %s needs the bearer key: 401 in OpenAI shape without it or with a wrong one',
    async (method, path, body) => {
      for (const authorization of [
        undefined,
        'Bearer wrong',
        'Bearer first-key-but-longer',
        'Basic Zmlyc3Qta2V5',
        'first-key',
      ]) {
        const reply = await call(method, path, authorization, body);
        expect(reply.status, `${authorization}`).toBe(401);
        expect((await reply.json()).error).toMatchObject({ type: 'AuthenticationError', code: 401 });
      }
      for (const key of ['first-key', 'second key'])
        expect((await call(method, path, `Bearer ${key}`, body)).status).not.toBe(401);
    },
  );

  it('the openai package and PolicyClient pass with the key and fail typed without it', async () => {
    const client = (apiKey: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey, maxRetries: 0 });
    expect(
      (await client('first-key').completions.create({ model: 'tiny', prompt: 'x', max_tokens: 1 })).choices,
    ).toHaveLength(1);
    await expect(
      client('nope').completions.create({ model: 'tiny', prompt: 'x', max_tokens: 1 }),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    expect((await new PolicyClient(url, { apiKey: 'second key' }).tokenize({ prompt: 'ab' })).count).toBe(2);
    await expect(new PolicyClient(url).tokenize({ prompt: 'ab' })).rejects.toBeInstanceOf(PolicyRequestError);
  });
});
