import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
}

/** What the fake answers: a reply text (with usage), or an HTTP status to fail with. */
export type FakeAnswer = { text: string } | { status: number; body?: string };

export interface FakeChat {
  /** The base URL to pass as --base-url (ends in /v1). */
  baseUrl: string;
  /** Every request path, e.g. to show nobody asked for /tokenize. */
  paths: string[];
  requests: ChatRequest[];
  close(): Promise<void>;
}

/**
 * An OpenAI-shaped chat server and nothing more: POST /v1/chat/completions answers with
 * `answer(request)` and usage counts; every other path is a 404 (no /tokenize, no logprobs).
 */
export async function startFakeChat(
  answer: (request: ChatRequest) => FakeAnswer | Promise<FakeAnswer>,
): Promise<FakeChat> {
  const paths: string[] = [];
  const requests: ChatRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    paths.push(req.url ?? '');
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end('{"error":"not found"}');
      return;
    }
    const request = JSON.parse(await readBody(req)) as ChatRequest;
    requests.push(request);
    // A fake that cannot answer says so (500) instead of leaving the request hanging.
    const reply = await Promise.resolve()
      .then(() => answer(request))
      .catch((error: unknown): FakeAnswer => ({ status: 500, body: JSON.stringify({ error: String(error) }) }));
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body ?? '{"error":"refused"}');
      return;
    }
    const promptChars = request.messages.reduce((n, m) => n + m.content.length, 0);
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        model: request.model,
        choices: [{ index: 0, message: { role: 'assistant', content: reply.text }, finish_reason: 'stop' }],
        usage: {
          prompt_tokens: Math.ceil(promptChars / 4),
          completion_tokens: Math.ceil(reply.text.length / 4),
          total_tokens: 0,
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    paths,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}
