import type { IncomingMessage, ServerResponse } from 'node:http';
import { BadRequestError, PayloadTooLargeError, toOpenAiError } from './http-errors.js';

/** Reads a JSON body, refusing more than `limit` bytes before buffering them. */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new PayloadTooLargeError(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new PayloadTooLargeError(limit);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') throw new BadRequestError('the request body is empty; send a JSON object');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BadRequestError(`the request body is not valid JSON (${(error as Error).message})`);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendText(res: ServerResponse, status: number, text: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendError(res: ServerResponse, error: unknown): void {
  const { status, body } = toOpenAiError(error);
  if (res.headersSent) {
    // Mid-stream: the status is gone; an SSE error event is all a client can still receive.
    if (!res.writableEnded) res.end(`data: ${JSON.stringify(body)}\n\ndata: [DONE]\n\n`);
    return;
  }
  sendJson(res, status, body);
}

/** Server-sent events as OpenAI streams them: `data: <json>` frames, then `data: [DONE]`. */
export class EventStream {
  constructor(private readonly res: ServerResponse) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  }

  send(data: unknown): void {
    if (!this.res.writableEnded) this.res.write(`data: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    if (!this.res.writableEnded) this.res.end('data: [DONE]\n\n');
  }
}

/** Aborts when the client goes away before the reply is complete. */
export function disconnectSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
