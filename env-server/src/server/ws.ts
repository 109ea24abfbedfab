import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import {
  type GauntletError,
  SessionError,
  InvalidJsonError,
  UnknownTypeError,
  ValidationError,
  assertJsonTextDepth,
  parseOrThrow,
  WsClientFrame,
  wsClientFrameTypes,
  type WsServerFrame,
} from '@gauntlet/proto';
import type { EnvService } from './env-service.js';
import type { EnvSession } from '../sessions/session.js';
import { isAuthorized } from './auth.js';
import { toGauntletError } from './errors.js';
import { openSessionStream } from './session-stream.js';
import { mcpReply } from './describe.js';

/** Sent in place of a reply that cannot be serialised, so the client still gets one reply per request. */
const UNRENDERABLE_REPLY: WsServerFrame = {
  type: 'error',
  data: { message: 'The reply could not be serialised', code: 'EXECUTION_ERROR' },
};

/** Errors after which OpenEnv closes the socket. */
const FATAL = new Set(['CAPACITY_REACHED', 'FACTORY_ERROR', 'SESSION_ERROR']);

/**
 * OpenEnv's `/ws` protocol: one session per connection (capacity checked on connect), strictly
 * one reply per request in order, `close` ends the session without a reply, disconnect frees it.
 */
export function attachWebSocket(service: EnvService): {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
} {
  const { config } = service;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: config.wsFrameLimitBytes,
    perMessageDeflate: { threshold: 1024 },
  });

  wss.on('connection', (socket) => serveConnection(service, socket));

  return {
    handleUpgrade(req, socket, head) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname !== '/ws') {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
        return;
      }
      const token =
        req.headers.authorization ??
        (url.searchParams.get('token') ? `Bearer ${url.searchParams.get('token')}` : undefined);
      if (config.bearerToken && !isAuthorized(token, config.bearerToken)) {
        socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    },
    close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
}

function serveConnection(service: EnvService, socket: WebSocket): void {
  /** Sends a frame and returns its size; `flushed` runs once ws handed it to the socket. */
  const send = (frame: WsServerFrame, flushed: () => void = () => undefined): number => {
    if (socket.readyState !== socket.OPEN) return 0;
    let text: string;
    try {
      text = JSON.stringify(frame);
    } catch {
      text = JSON.stringify(UNRENDERABLE_REPLY);
    }
    // ws calls back once the bytes are written out (with an error if the socket went first).
    socket.send(text, () => flushed());
    return text.length;
  };
  // `name` is ours (OpenEnv reads message and code): it tells subclasses sharing a code apart.
  const sendError = (error: GauntletError, flushed?: () => void) =>
    send(
      {
        type: 'error',
        data: { message: error.message, code: error.code, name: error.name, ...(error.details ?? {}) },
      },
      flushed,
    );
  const typed = (error: unknown) => toGauntletError(error, service.config);

  const stream = openSessionStream<RawData, WsServerFrame>(service, {
    transport: 'ws',
    where: 'a WebSocket connection',
    // ws hands over a Buffer, or an array of fragments for a fragmented message.
    sizeOf: (data) => (Array.isArray(data) ? data.reduce((sum, part) => sum + part.length, 0) : data.byteLength),
    answer: (session, data) => handleFrame(service, session, data),
    reply: send,
    typed,
    fatal: FATAL,
    replyError: sendError,
    fail(error) {
      const reason = typed(error);
      sendError(reason);
      socket.close(1008, reason.code);
    },
    finish: () => socket.close(1000, 'closed by client'),
    abort: () => socket.terminate(),
  });
  socket.on('close', () => stream.disconnected());
  socket.on('error', () => stream.disconnected());
  socket.on('message', (data) => stream.received(data));
}

async function handleFrame(service: EnvService, session: EnvSession, data: RawData): Promise<WsServerFrame | 'close'> {
  let raw: unknown;
  const text = data.toString();
  assertJsonTextDepth(text);
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new InvalidJsonError(`Frame is not valid JSON: ${(error as Error).message}`);
  }
  const type = (raw as { type?: unknown } | null)?.type;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new ValidationError('A frame must be a JSON object like {"type":"reset","data":{}}');
  if (!wsClientFrameTypes.includes(type as (typeof wsClientFrameTypes)[number])) throw new UnknownTypeError(type);
  const frame = parseOrThrow(WsClientFrame, raw, []);
  if (session.isClosed)
    throw new SessionError(
      'This session was closed by the server (idle too long, or shutting down); open a new connection',
    );
  session.touch();
  switch (frame.type) {
    case 'reset':
      return { type: 'observation', data: await service.reset(session, frame.data) };
    case 'step': {
      // OpenEnv puts the action's fields directly in `data`; unknown action fields are errors.
      const timeout = frame.timeout_s === undefined ? {} : { timeout_s: frame.timeout_s };
      return { type: 'observation', data: await service.step(session, { action: frame.data, ...timeout }) };
    }
    case 'state':
      return { type: 'state', data: service.state(session) };
    case 'record':
      return { type: 'record', data: await service.record(session, frame.data) };
    case 'mcp':
      return { type: 'mcp', data: mcpReply(frame.data) };
    case 'close':
      return 'close';
  }
}
