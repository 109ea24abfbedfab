import { Metadata, type ServerDuplexStream } from '@grpc/grpc-js';
import { GauntletError, SessionError, ValidationError } from '@gauntlet/proto';
import {
  SESSION_ID_METADATA, errorToMessage, resetBodyFromMessage, stateToMessage, statusForError, stepBodyFromMessage,
  stepResultToMessage, type messages as pb,
} from '@gauntlet/proto/grpc';
import type { EnvService } from './env-service.js';
import type { EnvSession } from '../sessions/session.js';
import { assertDecoded } from './grpc-decode.js';
import { openGrpcSession, secondsLeft } from './grpc-unary.js';

type SessionCall = ServerDuplexStream<pb.SessionRequestOut, pb.SessionReply>;

/** Errors after which the session cannot go on: the stream ends with their status, as /ws closes. */
const FATAL = new Set(['SESSION_ERROR']);

/**
 * EnvService.Session: one stream = one session (opened on connect, capacity checked first, its id
 * sent as initial metadata), requests answered one at a time in order, per-request errors sent as
 * replies; a `close` request or the client's half-close ends the session, a cancel frees it.
 */
export function serveSessionStream(service: EnvService, call: SessionCall): void {
  let session: EnvSession | undefined;
  let ended = false;
  let halfClosed = false;
  const pending: pb.SessionRequestOut[] = [];
  let draining: Promise<void> | undefined;

  const end = async (reason: 'client' | 'disconnect') => {
    if (ended) return;
    ended = true;
    if (session) await service.close(session, reason).catch(() => undefined);
  };
  const fail = (error: unknown) => {
    service.metrics.countError(error);
    void end('client').then(() => call.emit('error', statusForError(error)));
  };
  const finish = () => void end('client').then(() => call.end());

  call.on('cancelled', () => void end('disconnect'));
  call.on('error', () => void end('disconnect'));
  call.on('data', (message: pb.SessionRequestOut) => {
    pending.push(message);
    draining ??= drain().finally(() => (draining = undefined));
  });
  call.on('end', () => {
    halfClosed = true;
    draining ??= drain().finally(() => (draining = undefined));
  });

  const opening = openGrpcSession(service).then(
    (opened) => {
      session = opened;
      if (ended) return void service.close(opened, 'disconnect');
      const metadata = new Metadata();
      metadata.set(SESSION_ID_METADATA, opened.id);
      call.sendMetadata(metadata);
    },
    (error: unknown) => fail(error),
  );

  async function drain(): Promise<void> {
    await opening;
    while (pending.length > 0 && !ended && session) {
      const message = pending.shift()!;
      // A message that failed to decode has no kind; handle() reports it.
      if (message.kind === 'close') return finish();
      try {
        const reply = await handle(service, session, message, call);
        if (!ended) call.write(reply);
      } catch (error) {
        const typed = error instanceof GauntletError ? error : undefined;
        if (!typed || FATAL.has(typed.code)) return fail(error);
        service.metrics.countError(typed);
        if (!ended) call.write({ error: errorToMessage(typed.toWire()) });
      }
    }
    if (halfClosed && pending.length === 0 && !ended) finish();
  }
}

async function handle(service: EnvService, session: EnvSession, message: pb.SessionRequestOut, call: SessionCall): Promise<pb.SessionReply> {
  assertDecoded(message, 'SessionRequest');
  if (session.isClosed) throw new SessionError('This session was closed by the server (idle too long, or shutting down); open a new stream');
  session.touch();
  switch (message.kind) {
    case 'reset':
      rejectSessionId(message.reset?.session_id);
      return { result: stepResultToMessage(await service.reset(session, resetBodyFromMessage(message.reset!))) };
    case 'step':
      rejectSessionId(message.step?.session_id);
      return { result: stepResultToMessage(await service.step(session, stepBodyFromMessage(message.step!, secondsLeft(call)))) };
    case 'state':
      rejectSessionId(message.state?.session_id);
      return { state: stateToMessage(service.state(session)) };
    default:
      throw new ValidationError('A SessionRequest must set one of reset, step, state or close');
  }
}

/** The stream is the session: an id in a request would suggest it addresses another one. */
function rejectSessionId(id: string | undefined): void {
  if (id) throw new ValidationError('session_id is not used on the Session stream (the stream is the session); leave it empty');
}
