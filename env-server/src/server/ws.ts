import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import {
  FactoryError, GauntletError, SessionError, InvalidJsonError, UnknownTypeError, ValidationError,
  assertJsonTextDepth, parseOrThrow, WsClientFrame, wsClientFrameTypes, type WsServerFrame,
} from '@gauntlet/proto';
import type { EnvService } from './env-service.js';
import type { EnvSession } from '../sessions/session.js';
import { isAuthorized } from './auth.js';
import { toGauntletError } from './errors.js';
import { reportUnexpected } from './last-resort.js';
import { mcpReply } from './describe.js';

/** Sent in place of a reply that cannot be serialised, so the client still gets one reply per request. */
const UNRENDERABLE_REPLY: WsServerFrame = { type: 'error', data: { message: 'The reply could not be serialised', code: 'EXECUTION_ERROR' } };

/** Errors after which OpenEnv closes the socket. */
const FATAL = new Set(['CAPACITY_REACHED', 'FACTORY_ERROR', 'SESSION_ERROR']);

/**
 * OpenEnv's `/ws` protocol: one session per connection (capacity checked on connect), strictly
 * one reply per request in order, `close` ends the session without a reply, disconnect frees it.
 */
export function attachWebSocket(service: EnvService): { handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void; close(): void } {
  const { config } = service;
  const wss = new WebSocketServer({ noServer: true, maxPayload: config.wsFrameLimitBytes, perMessageDeflate: { threshold: 1024 } });

  wss.on('connection', (socket) => void serveConnection(service, socket));

  return {
    handleUpgrade(req, socket, head) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname !== '/ws') {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
        return;
      }
      const token = req.headers.authorization ?? (url.searchParams.get('token') ? `Bearer ${url.searchParams.get('token')}` : undefined);
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

async function serveConnection(service: EnvService, socket: WebSocket): Promise<void> {
  let session: EnvSession | undefined;
  let ended = false;
  const pending: RawData[] = [];
  let draining: Promise<void> | undefined;

  const end = async (reason: 'client' | 'disconnect') => {
    if (ended) return;
    ended = true;
    if (session) await service.close(session, reason).catch(() => undefined);
  };
  socket.on('close', () => void end('disconnect'));
  socket.on('error', () => void end('disconnect'));
  // Frames that arrive while the session opens are queued, then answered in order.
  socket.on('message', (data) => {
    pending.push(data);
    draining ??= drain()
      .catch((error: unknown) => {
        // Last resort: this connection is lost, the process and every other session are not.
        reportUnexpected('a WebSocket connection', error);
        socket.terminate();
        void end('disconnect');
      })
      .finally(() => {
        draining = undefined;
      });
  });

  const send = (frame: WsServerFrame) => {
    if (socket.readyState !== socket.OPEN) return;
    let text: string;
    try {
      text = JSON.stringify(frame);
    } catch {
      text = JSON.stringify(UNRENDERABLE_REPLY);
    }
    socket.send(text);
  };
  const sendError = (error: GauntletError) => {
    service.metrics.errors.inc({ code: error.code });
    send({ type: 'error', data: { message: error.message, code: error.code, ...(error.details ?? {}) } });
    if (FATAL.has(error.code)) {
      socket.close(1008, error.code);
      void end('client');
    }
  };

  const opening = service.openSession('ws').then(
    (opened) => {
      session = opened;
      if (ended) void service.close(opened, 'disconnect');
    },
    (error: unknown) => {
      sendError(error instanceof GauntletError ? error : new FactoryError(`Could not create the environment: ${(error as Error).message}`));
    },
  );

  async function drain(): Promise<void> {
    await opening;
    while (pending.length > 0 && !ended && session) {
      const data = pending.shift()!;
      try {
        const reply = await handleFrame(service, session, data);
        if (reply === 'close') {
          socket.close(1000, 'closed by client');
          await end('client');
          return;
        }
        send(reply);
      } catch (error) {
        sendError(toGauntletError(error, service.config));
      }
    }
  }
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
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError('A frame must be a JSON object like {"type":"reset","data":{}}');
  if (!wsClientFrameTypes.includes(type as (typeof wsClientFrameTypes)[number])) throw new UnknownTypeError(type);
  const frame = parseOrThrow(WsClientFrame, raw, []);
  if (session.isClosed) throw new SessionError('This session was closed by the server (idle too long, or shutting down); open a new connection');
  session.touch();
  switch (frame.type) {
    case 'reset':
      return { type: 'observation', data: await service.reset(session, frame.data) };
    case 'step': {
      // OpenEnv puts the action's fields directly in `data`; unknown action fields are errors.
      return { type: 'observation', data: await service.step(session, { action: frame.data }) };
    }
    case 'state':
      return { type: 'state', data: service.state(session) };
    case 'mcp':
      return { type: 'mcp', data: mcpReply(frame.data) };
    case 'close':
      return 'close';
  }
}
