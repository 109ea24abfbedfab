import type { IncomingMessage, ServerResponse } from 'node:http';
import { assertJsonTextDepth } from '@gauntlet/proto';
import { abortOn } from '@gauntlet/proto/deadline';
import { BadRequestError, PayloadTooLargeError, toOpenAiError } from './http-errors.js';

/**
 * Bytes of a refused body still read (and dropped) after the reply, so that a client that is
 * still uploading gets to read the 413 instead of a reset; a client that sends more is cut off.
 */
const DISCARD_BYTES = 64 * 1024 * 1024;

/** Bodies up to this size are parsed on the event loop (a millisecond or two); larger ones by `parseLarge`. */
const INLINE_BODY_BYTES = 1024 * 1024;

/**
 * Reads a JSON body: at most `limit` bytes (declared or chunked), nested at most 64 levels (a
 * linear scan, before anything recursive sees it), then parsed. A body over 1 MiB is decoded and
 * parsed by `parseLarge` (the server's preparation thread): at 8 MiB that is tens of milliseconds.
 */
export async function readJsonBody(
  req: IncomingMessage,
  limit: number,
  parseLarge?: (bytes: Uint8Array) => Promise<unknown>,
): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new PayloadTooLargeError(limit);
  const bytes = await readBytes(req, limit);
  if (parseLarge && bytes.length > INLINE_BODY_BYTES) return parseLarge(bytes);
  return parseJsonText(bytes.toString('utf8'));
}

/** JSON text → value, depth-checked first; errors say what is wrong, never quoting the text. */
export function parseJsonText(text: string): unknown {
  if (text.trim() === '') throw new BadRequestError('the request body is empty; send a JSON object');
  assertJsonTextDepth(text);
  try {
    return JSON.parse(text);
  } catch {
    // The parser's message quotes the text around the error: say where instead, not what.
    throw new BadRequestError('the request body is not valid JSON');
  }
}

/** The body's bytes, refused past `limit` without buffering more (and without destroying the socket the reply goes out on). */
function readBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData).off('end', onEnd).off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      reject(new PayloadTooLargeError(limit));
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onClose = () => {
      stop();
      reject(new BadRequestError('the request body ended before it was complete'));
    };
    req.on('data', onData).on('end', onEnd).on('close', onClose);
  });
}

const discarding = new WeakSet<IncomingMessage>();

/**
 * After an early reply (413, 401, 404), reads what is left of the body and drops it, up to
 * DISCARD_BYTES: a client still uploading then reads the reply rather than meeting a reset.
 */
export function discardBody(req: IncomingMessage): void {
  if (req.readableEnded || discarding.has(req)) return;
  discarding.add(req);
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DISCARD_BYTES) req.socket.destroy();
  });
  req.on('error', () => {});
  req.resume();
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendJsonText(res, status, JSON.stringify(body));
}

/** A reply already written as JSON text. */
export function sendJsonText(res: ServerResponse, status: number, text: string): void {
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

/**
 * Server-sent events as OpenAI streams them: `data: <json>` frames, then `data: [DONE]`. The 200
 * goes out with the first frame, so a request refused before then still gets its own status.
 */
export class EventStream {
  constructor(private readonly res: ServerResponse) {}

  send(data: unknown): void {
    this.open();
    if (!this.res.writableEnded) this.res.write(`data: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    this.open();
    if (!this.res.writableEnded) this.res.end('data: [DONE]\n\n');
  }

  private open(): void {
    if (!this.res.headersSent)
      this.res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
  }
}

/** Aborts when the client goes away before the reply is complete. */
export function disconnectSignal(res: ServerResponse): AbortSignal {
  return abortOn(res, 'close', { when: () => !res.writableFinished });
}
