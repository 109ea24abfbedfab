import { Metadata, type ServerDuplexStream } from '@grpc/grpc-js';
import { ExecutionError, GauntletError, SessionError, ValidationError } from '@gauntlet/proto';
import {
  SESSION_ID_METADATA,
  errorToMessage,
  resetBodyFromMessage,
  stateToMessage,
  statusForError,
  stepBodyFromMessage,
  stepResultToMessage,
  envMessageCodec,
  type messages as pb,
} from '@gauntlet/proto/grpc';
import type { EnvService } from './env-service.js';
import type { EnvSession } from '../sessions/session.js';
import { assertDecoded } from './grpc-decode.js';
import { secondsLeft } from './grpc-unary.js';
import { openSessionStream } from './session-stream.js';
import { resetIfStillOpen } from './grpc-stream-reset.js';

type SessionCall = ServerDuplexStream<pb.SessionRequestOut, pb.SessionReply>;

/** Errors after which the session cannot go on: the stream ends with their status, as /ws closes. */
const FATAL = new Set(['SESSION_ERROR']);

/**
 * EnvService.Session: one stream = one session (opened on connect, capacity checked first, its id
 * sent as initial metadata), requests answered one at a time in order, per-request errors sent as
 * replies; a `close` request or the client's half-close ends the session, a cancel frees it.
 */
export function serveSessionStream(service: EnvService, call: SessionCall): void {
  const stream = openSessionStream<pb.SessionRequestOut, pb.SessionReply>(service, {
    transport: 'grpc',
    where: 'a gRPC Session stream',
    opened(session) {
      const metadata = new Metadata();
      metadata.set(SESSION_ID_METADATA, session.id);
      call.sendMetadata(metadata);
    },
    // A message that failed to decode has no kind; handle() reports it.
    answer: async (session, message) => (message.kind === 'close' ? 'close' : handle(service, session, message, call)),
    sizeOf: (message) => requestSize(message, service.config.grpcMessageLimitBytes),
    reply: (reply, flushed) => write(call, reply, flushed),
    // Only our typed errors are answered as replies; anything else fails the stream with INTERNAL.
    typed: (error) => (error instanceof GauntletError ? error : undefined),
    fatal: FATAL,
    replyError: (error, flushed) => write(call, { error: errorToMessage(error.toWire()) }, flushed),
    fail(error) {
      call.emit('error', statusForError(error));
      resetIfStillOpen(call, service.config.unreadReplyTimeoutMs);
    },
    finish: () => call.end(),
    abort: () =>
      call.emit('error', statusForError(new ExecutionError('The stream failed on the server; open a new one'))),
  });
  call.on('cancelled', () => stream.disconnected());
  call.on('error', () => stream.disconnected());
  call.on('data', (message: pb.SessionRequestOut) => stream.received(message));
  call.on('end', () => stream.inputEnded());
}

const replyCodec = envMessageCodec<pb.SessionReply>('gauntlet.env.v1.SessionReply');

/**
 * Writes one reply; `flushed` runs once HTTP/2 sent it (flow control holds it while the client
 * does not read). The size is its encoded length, which grpc-js also computes when it sends.
 */
function write(call: SessionCall, reply: pb.SessionReply, flushed: () => void): number {
  const bytes = replyCodec.serialize(reply).length;
  call.write(reply, () => flushed());
  return bytes;
}

/**
 * About what a decoded request holds in memory: its JSON length (strings dominate any request);
 * one that cannot be measured counts as the largest message the server accepts.
 */
function requestSize(message: pb.SessionRequestOut, limitBytes: number): number {
  try {
    return JSON.stringify(message)?.length ?? limitBytes;
  } catch {
    return limitBytes;
  }
}

async function handle(
  service: EnvService,
  session: EnvSession,
  message: pb.SessionRequestOut,
  call: SessionCall,
): Promise<pb.SessionReply> {
  assertDecoded(message, 'SessionRequest');
  if (session.isClosed)
    throw new SessionError(
      'This session was closed by the server (idle too long, or shutting down); open a new stream',
    );
  session.touch();
  switch (message.kind) {
    case 'reset':
      rejectSessionId(message.reset?.session_id);
      return { result: stepResultToMessage(await service.reset(session, resetBodyFromMessage(message.reset!))) };
    case 'step':
      rejectSessionId(message.step?.session_id);
      return {
        result: stepResultToMessage(await service.step(session, stepBodyFromMessage(message.step!, secondsLeft(call)))),
      };
    case 'state':
      rejectSessionId(message.state?.session_id);
      return { state: stateToMessage(service.state(session)) };
    default:
      throw new ValidationError('A SessionRequest must set one of reset, step, state or close');
  }
}

/** The stream is the session: an id in a request would suggest it addresses another one. */
function rejectSessionId(id: string | undefined): void {
  if (id)
    throw new ValidationError(
      'session_id is not used on the Session stream (the stream is the session); leave it empty',
    );
}
