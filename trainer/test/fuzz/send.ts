import { request as httpRequest } from 'node:http';
import type { FuzzRequest } from './requests.js';

export const API_KEY = 'fuzz-key';

/** A reply as the fuzzer reads it: status and the whole body (SSE included) as text. */
export interface Reply {
  status: number;
  text: string;
}

/** Sends one request with fetch; a hang past `timeoutMs` rejects. */
export async function send(url: string, request: FuzzRequest, timeoutMs = 30_000): Promise<Reply> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (request.authorized) headers['authorization'] = `Bearer ${API_KEY}`;
  const reply = await fetch(url + request.path, {
    method: request.method,
    headers,
    signal: AbortSignal.timeout(timeoutMs),
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  return { status: reply.status, text: await reply.text() };
}

/**
 * POSTs `total` bytes as a chunked body (no content-length), written as fast as the socket takes
 * them, and resolves once the upload is done and the reply has ended; a reset rejects.
 */
export function sendChunked(url: string, path: string, total: number): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const target = new URL(path, url);
    const req = httpRequest({
      host: target.hostname,
      port: target.port,
      path: target.pathname,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${API_KEY}`,
        'transfer-encoding': 'chunked',
      },
    });
    let reply: Reply | undefined;
    let uploaded = false;
    const settle = () => reply && uploaded && resolve(reply);
    req.on('response', (res) => {
      let text = '';
      res.on('data', (part: Buffer) => (text += part.toString()));
      res.on('end', () => {
        reply = { status: res.statusCode ?? 0, text };
        settle();
      });
    });
    req.on('error', reject);
    const chunk = 'x'.repeat(64 * 1024);
    req.write('{"prompt":"');
    for (let sent = 0; sent < total; sent += chunk.length) req.write(chunk);
    req.end('"}', () => {
      uploaded = true;
      settle();
    });
  });
}
