import type { GauntletError } from '@gauntlet/proto';
import type { EnvService } from './env-service.js';
import type { EnvSession } from '../sessions/session.js';
import { reportUnexpected } from './last-resort.js';

/**
 * What a streaming transport (the `/ws` socket, the gRPC `Session` stream) supplies: its framing
 * and encoding. Everything else about a per-connection session lives once, in `openSessionStream`.
 */
export interface StreamFraming<Request, Reply> {
  transport: 'ws' | 'grpc';
  /** Names the connection in the operator's log when the last resort catches something. */
  where: string;
  /** Called once the session is open, before any reply (gRPC sends the session id as metadata). */
  opened?(session: EnvSession): void;
  /** Answers one request; `'close'` ends the session without a reply. */
  answer(session: EnvSession, request: Request): Promise<Reply | 'close'>;
  /** Sends one reply; never called after the stream ended. */
  reply(reply: Reply): void;
  /**
   * The typed error a failed request is answered with, or undefined when this transport cannot
   * answer it as a reply (the stream then fails with it).
   */
  typed(error: unknown): GauntletError | undefined;
  /** Codes after which the session cannot go on: the stream ends with the error instead of replying. */
  fatal: ReadonlySet<string>;
  /** Answers one request with a typed error; the stream goes on. */
  replyError(error: GauntletError): void;
  /** Ends the stream with an error, after its session was closed. */
  fail(error: unknown): void;
  /** Ends the stream normally, after its session was closed. */
  finish(): void;
  /** Drops the connection at once: the last resort caught something this connection did. */
  abort(): void;
}

export interface SessionStream<Request> {
  /** A request arrived: queued, then answered in order, once the session is open. */
  received(request: Request): void;
  /** The client sent everything it will send: the stream finishes once the queue is answered. */
  inputEnded(): void;
  /** The connection went away (socket closed, call cancelled): the session is freed. */
  disconnected(): void;
}

/**
 * One connection = one session: opened on connect (the session manager checks capacity), requests
 * that arrive while it opens are queued, each request gets exactly one reply in order, a close or a
 * disconnect frees the session, and the session is closed before the stream ends (so its capacity
 * is free by the time the client sees the end). Anything unexpected loses this connection, never
 * the process.
 */
export function openSessionStream<Request, Reply>(
  service: EnvService,
  framing: StreamFraming<Request, Reply>,
): SessionStream<Request> {
  let session: EnvSession | undefined;
  let ended = false;
  let inputEnded = false;
  const pending: Request[] = [];
  let draining: Promise<void> | undefined;

  const end = async (reason: 'client' | 'disconnect') => {
    if (ended) return;
    ended = true;
    if (session) await service.close(session, reason).catch(() => undefined);
  };
  // The last resort for this connection: log it for the operator, drop the connection, free the session.
  const guard = (work: Promise<void>) =>
    work.catch((error: unknown) => {
      reportUnexpected(framing.where, error);
      try {
        framing.abort();
      } catch {
        // The connection is already gone; freeing the session below is what matters.
      }
      void end('disconnect');
    });
  const fail = async (error: unknown) => {
    service.metrics.countError(error);
    await end('client');
    framing.fail(error);
  };
  const finish = async () => {
    await end('client');
    framing.finish();
  };

  const open = async () => {
    let opened: EnvSession;
    try {
      opened = await service.openSession(framing.transport);
    } catch (error) {
      // Without a session the connection can do nothing: it ends with the reason.
      return fail(error);
    }
    session = opened;
    if (ended) return void service.close(opened, 'disconnect').catch(() => undefined);
    framing.opened?.(opened);
  };
  const opening = guard(open());

  async function answerOne(current: EnvSession, request: Request): Promise<'stop' | 'next'> {
    try {
      const reply = await framing.answer(current, request);
      if (reply === 'close') {
        await finish();
        return 'stop';
      }
      if (!ended) framing.reply(reply);
      return 'next';
    } catch (error) {
      const typed = framing.typed(error);
      if (!typed || framing.fatal.has(typed.code)) {
        await fail(typed ?? error);
        return 'stop';
      }
      service.metrics.countError(typed);
      if (!ended) framing.replyError(typed);
      return 'next';
    }
  }

  async function drain(): Promise<void> {
    await opening;
    while (pending.length > 0 && !ended && session) {
      if ((await answerOne(session, pending.shift()!)) === 'stop') return;
    }
    if (inputEnded && pending.length === 0 && !ended) await finish();
  }
  const kick = () => {
    draining ??= guard(drain()).finally(() => {
      draining = undefined;
    });
  };

  return {
    received(request) {
      pending.push(request);
      kick();
    },
    inputEnded() {
      inputEnded = true;
      kick();
    },
    disconnected() {
      void end('disconnect');
    },
  };
}
