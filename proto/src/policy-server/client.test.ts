import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DeadlineExceededError, ValidationError } from '../errors.js';
import { PolicyClient } from './client.js';
import { PolicyReplyError, PolicyRequestError, PolicyUnavailableError } from './errors.js';

// A scripted stand-in for a policy server (unit tests only): each request gets the next reply.
type Reply = { status: number; body: unknown } | 'hang' | 'drop';
interface Seen {
  method: string;
  path: string;
  body: any;
  auth: string | undefined;
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function scripted(replies: Reply[]): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      seen.push({
        method: req.method!,
        path: req.url!,
        body: text ? JSON.parse(text) : undefined,
        auth: req.headers.authorization,
      });
      const reply = replies.shift() ?? { status: 500, body: { error: { message: 'no reply scripted' } } };
      if (reply === 'hang') return;
      if (reply === 'drop') return void req.socket.destroy();
      const out = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(out);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

const completion = (choice: Record<string, unknown>) => ({
  status: 200,
  body: {
    id: 'cmpl-1',
    object: 'text_completion',
    created: 1,
    model: 'tiny',
    choices: [{ index: 0, text: "click('5')", finish_reason: 'stop', ...choice }],
    usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
  },
});
const fast = { retry: { attempts: 3, initialDelayMs: 1, maxDelayMs: 2 } };

describe('PolicyClient', () => {
  it('generate sends a token-id prompt with every sampling field explicit and returns ids with their logprobs', async () => {
    const { url, seen } = await scripted([
      completion({
        token_ids: [7, 8],
        logprobs: {
          tokens: ['a', 'b'],
          token_logprobs: [-0.5, -0.25],
          top_logprobs: [{ a: -0.5 }, { b: -0.25 }],
          text_offset: [0, 1],
        },
      }),
    ]);
    const client = new PolicyClient(`${url}/v1`, { apiKey: 'k', ...fast });
    const generation = await client.generate({
      model: 'tiny',
      promptIds: [1, 2, 3],
      maxTokens: 8,
      temperature: 0.7,
      seed: 11,
      regex: 'click\\(.*\\)',
    });
    expect(generation).toEqual({
      model: 'tiny',
      text: "click('5')",
      tokenIds: [7, 8],
      logprobs: [-0.5, -0.25],
      finishReason: 'stop',
    });
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/v1/completions', auth: 'Bearer k' });
    expect(seen[0]!.body).toEqual({
      model: 'tiny',
      prompt: [1, 2, 3],
      n: 1,
      max_tokens: 8,
      temperature: 0.7,
      top_p: 1,
      top_k: -1,
      min_p: 0,
      seed: 11,
      stop: [],
      stop_token_ids: [],
      logprobs: 1,
      return_token_ids: true,
      structured_outputs: { regex: 'click\\(.*\\)' },
      stream: false,
    });
  });

  it('tokenize picks the chat or text form; detokenize posts ids; both live at the root, not under /v1', async () => {
    const { url, seen } = await scripted([
      { status: 200, body: { count: 2, max_model_len: 64, tokens: [5, 6] } },
      { status: 200, body: { count: 1, max_model_len: 64, tokens: [9] } },
      { status: 200, body: { prompt: 'hi' } },
    ]);
    const client = new PolicyClient(`${url}/v1/`, fast);
    expect(
      (await client.tokenize({ messages: [{ role: 'user', content: 'hi' }], add_generation_prompt: true })).tokens,
    ).toEqual([5, 6]);
    expect((await client.tokenize({ prompt: 'hi', add_special_tokens: false })).tokens).toEqual([9]);
    expect(await client.detokenize({ tokens: [104, 105] })).toEqual({ prompt: 'hi' });
    expect(seen.map((s) => s.path)).toEqual(['/tokenize', '/tokenize', '/detokenize']);
  });

  it('retries 5xx and dropped connections with backoff, then succeeds', async () => {
    const { url, seen } = await scripted([
      { status: 503, body: { error: { message: 'queue full' } } },
      'drop',
      { status: 200, body: { prompt: 'ok' } },
    ]);
    expect(await new PolicyClient(url, fast).detokenize({ tokens: [1] })).toEqual({ prompt: 'ok' });
    expect(seen).toHaveLength(3);
  });

  it('gives up after its tries with PolicyUnavailableError naming the status', async () => {
    const { url, seen } = await scripted(Array.from({ length: 5 }, () => ({ status: 502, body: 'Bad Gateway' })));
    const error = await new PolicyClient(url, fast).detokenize({ tokens: [1] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PolicyUnavailableError);
    expect(error).toMatchObject({
      status: 502,
      code: 'INFRA_ERROR',
      message: expect.stringMatching(/answered detokenize with 502: Bad Gateway/),
    });
    expect(seen).toHaveLength(3);
  });

  it('reports an unreachable server as PolicyUnavailableError with status 0', async () => {
    const { url } = await scripted([]);
    server!.close();
    server = undefined;
    const error = await new PolicyClient(url, fast).models().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PolicyUnavailableError);
    expect(error).toMatchObject({ status: 0, message: expect.stringMatching(/unreachable at .*ECONNREFUSED/) });
  });

  it('does not retry a 4xx: PolicyRequestError with the server message and the field it blamed', async () => {
    const { url, seen } = await scripted([
      {
        status: 404,
        body: {
          error: { message: 'The model `nope` does not exist.', type: 'NotFoundError', param: 'model', code: 404 },
        },
      },
    ]);
    const error = await new PolicyClient(url, fast)
      .generate({ model: 'nope', promptIds: [1], maxTokens: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PolicyRequestError);
    expect(error).toMatchObject({
      status: 404,
      param: 'model',
      code: 'NOT_FOUND',
      message: expect.stringContaining('The model `nope` does not exist.'),
    });
    expect(seen).toHaveLength(1);
  });

  it('reads the flat error body of older vLLM releases', async () => {
    const { url } = await scripted([
      { status: 400, body: { object: 'error', message: 'max_tokens too large', type: 'BadRequestError', code: 400 } },
    ]);
    await expect(new PolicyClient(url, fast).detokenize({ tokens: [1] })).rejects.toThrow(
      /\(400\): max_tokens too large/,
    );
  });

  it('refuses a bad request before sending it', async () => {
    const { url, seen } = await scripted([]);
    await expect(new PolicyClient(url, fast).completions({ prompt: [], max_tokens: 1 })).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(seen).toHaveLength(0);
  });

  it('checks replies: wrong shape, not JSON, or no token ids are PolicyReplyError, not retried', async () => {
    const { url, seen } = await scripted([
      { status: 200, body: { count: 'two' } },
      { status: 200, body: '<html>' },
      completion({ logprobs: null }),
    ]);
    const client = new PolicyClient(url, fast);
    await expect(client.tokenize({ prompt: 'x' })).rejects.toThrow(PolicyReplyError);
    await expect(client.detokenize({ tokens: [1] })).rejects.toThrow(/not JSON: <html>/);
    await expect(client.generate({ promptIds: [1], maxTokens: 2 })).rejects.toThrow(
      /returned no token_ids: it must support return_token_ids/,
    );
    expect(seen).toHaveLength(3);
  });

  it('a generation whose logprobs do not cover every token is refused', async () => {
    const { url } = await scripted([
      completion({ token_ids: [1, 2], logprobs: { tokens: ['a'], token_logprobs: [-1] } }),
    ]);
    await expect(new PolicyClient(url, fast).generate({ promptIds: [1], maxTokens: 2 })).rejects.toThrow(
      /returned 1 logprobs for 2 sampled tokens/,
    );
  });

  it('every call has a deadline, retries included, and an AbortSignal', async () => {
    const { url } = await scripted(['hang', 'hang']);
    const client = new PolicyClient(url, fast);
    await expect(client.models({ timeoutMs: 50 })).rejects.toBeInstanceOf(DeadlineExceededError);
    const controller = new AbortController();
    const pending = client.models({ signal: controller.signal });
    controller.abort(new Error('episode cancelled'));
    await expect(pending).rejects.toThrow('episode cancelled');
  });

  it('rejects a URL that is not http(s)', () => {
    expect(() => new PolicyClient('grpc://x:1')).toThrow(/must be http:\/\/ or https:\/\//);
    expect(() => new PolicyClient('nope')).toThrow(/is not a URL/);
  });
});
