import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, startTinyServer } from './server-support.js';

let tiny: Awaited<ReturnType<typeof startTinyServer>>;
let url: string;
beforeAll(async () => {
  tiny = await startTinyServer({ limits: { bodyBytes: 64 * 1024 } });
  url = tiny.server.url;
});
afterAll(async () => tiny?.stop());

/**
 * POSTs a chunked body (no content-length) of `chunks` × `chunk`, written as fast as the socket
 * takes it, as an uploading client does. Resolves with the reply once the upload has finished and
 * the reply has ended; any socket error (a reset while still uploading) rejects.
 */
function postChunked(path: string, chunk: string, chunks: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(path, url);
    const req = request({
      host: target.hostname,
      port: target.port,
      path: target.pathname,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    let reply: { status: number; body: string } | undefined;
    let uploaded = false;
    const settle = () => reply && uploaded && resolve(reply);
    req.on('response', (res) => {
      let body = '';
      res.on('data', (part: Buffer) => (body += part.toString()));
      res.on('end', () => {
        reply = { status: res.statusCode ?? 0, body };
        settle();
      });
    });
    req.on('error', reject);
    req.write('{"prompt":"');
    for (let i = 0; i < chunks; i++) req.write(chunk);
    req.end('"}', () => {
      uploaded = true;
      settle();
    });
  });
}

describe('request bodies', () => {
  it('answers a chunked body over the limit with a 413 in OpenAI shape, not a reset, and keeps serving', async () => {
    const reply = await postChunked('/v1/completions', 'x'.repeat(64 * 1024), 256);
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body).error).toMatchObject({ code: 413, message: expect.stringMatching(/limit/) });
    expect((await post(`${url}/v1/completions`, { prompt: 'ok', max_tokens: 2 })).status).toBe(200);
  });

  it('answers a declared content-length over the limit with a 413 before reading the body', async () => {
    const big = await fetch(`${url}/tokenize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'z'.repeat(200 * 1024) }),
    });
    expect(big.status).toBe(413);
    expect((await big.json()).error.type).toBe('BadRequestError');
  });

  it('refuses JSON nested deeper than 64 levels with a 400 before anything walks it', async () => {
    const deep = `{"prompt":"x","chat_template_kwargs":{"a":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
    const reply = await post(`${url}/v1/completions`, deep);
    expect(reply.status).toBe(400);
    expect(reply.json.error.message).toMatch(/more than 64 levels deep/);
  });
});
