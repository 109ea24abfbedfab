import type { GauntletError } from '@gauntlet/proto';
import type { EnvService } from './env-service.js';
import type { EnvSession } from '../sessions/session.js';
import { reportUnexpected } from './last-resort.js';
import { ConnectionBuffers } from './connection-buffers.js';

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
  /** About how many bytes a request holds while it waits (counted against the buffer limits). */
  sizeOf(request: Request): number;
  /** Answers one request; `'close'` ends the session without a reply. */
  answer(session: EnvSession, request: Request): Promise<Reply | 'close'>;
  /**
   * Sends one reply and returns its size in bytes; `flushed` is called once the transport handed
   * those bytes to the network (never, if the connection went away first). Never called after
   * the stream ended.
   */
  reply(reply: Reply, flushed: () => void): number;
  /**
   * The typed error a failed request is answered with, or undefined when this transport cannot
   * answer it as a reply (the stream then fails with it).
   */
  typed(error: unknown): GauntletError | undefined;
  /** Codes after which the session cannot go on: the stream ends with the error instead of replying. */
  fatal: ReadonlySet<string>;
  /** Answers one request with a typed error, as `reply` sends; the stream goes on. */
  replyError(error: GauntletError, flushed: () => void): number;
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

/** A request waiting for its turn, or one refused on arrival that is answered with its error in that turn. */
type Waiting<Request> = { request: Request; bytes: number } | { refused: GauntletError };

/**
 * One connection = one session: opened on connect (the session manager checks capacity), requests
 * that arrive while it opens are queued, each request gets exactly one reply in order, a close or a
 * disconnect frees the session, and the session is closed before the stream ends (so its capacity
 * is free by the time the client sees the end). Anything unexpected loses this connection, never
 * the process.
 *
 * What a connection buffers is bounded (see ConnectionBuffers): a request past the queue limits is
 * refused with PAYLOAD_TOO_LARGE in its turn (its bytes dropped at once), twice the request limit
 * closes the connection, and while the client leaves too many reply bytes unread no further
 * request is answered; unread past `unreadReplyTimeoutMs`, the connection closes.
 */
export function openSessionStream<Request, Reply>(
  service: EnvService,
  framing: StreamFraming<Request, Reply>,
): SessionStream<Request> {
  let session: EnvSession | undefined;
  let ended = false;
  let inputEnded = false;
  const pending: Waiting<Request>[] = [];
  let draining: Promise<void> | undefined;
  const buffers = new ConnectionBuffers(service.config, service.buffers, (error) => void guard(fail(error)));

  const end = async (reason: 'client' | 'disconnect') => {
    if (ended) return;
    ended = true;
    // Nothing this connection held is needed any more: its waiting requests go now, not at GC.
    pending.length = 0;
    buffers.close();
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
    // Already ending (a disconnect, an earlier failure): the first reason is the one the client gets.
    if (ended) return;
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

  // Counts a reply against the unread limits until the transport says its bytes left the process.
  const track = (send: (flushed: () => void) => number) => {
    let flushedAlready = false;
    let onFlushed: () => void = () => void (flushedAlready = true);
    const release = buffers.sent(send(() => onFlushed()));
    if (flushedAlready) release();
    else onFlushed = release;
  };

  async function answerOne(current: EnvSession, waiting: Waiting<Request>): Promise<'stop' | 'next'> {
    if ('refused' in waiting) {
      service.metrics.countError(waiting.refused);
      track((flushed) => framing.replyError(waiting.refused, flushed));
      return 'next';
    }
    buffers.dequeue(waiting.bytes);
    try {
      const reply = await framing.answer(current, waiting.request);
      if (reply === 'close') {
        await finish();
        return 'stop';
      }
      if (!ended) track((flushed) => framing.reply(reply, flushed));
      return 'next';
    } catch (error) {
      const typed = framing.typed(error);
      if (!typed || framing.fatal.has(typed.code)) {
        await fail(typed ?? error);
        return 'stop';
      }
      service.metrics.countError(typed);
      if (!ended) track((flushed) => framing.replyError(typed, flushed));
      return 'next';
    }
  }

  async function drain(): Promise<void> {
    await opening;
    while (pending.length > 0 && !ended && session) {
      // Back-pressure: a client that leaves its replies unread gets no more until it reads.
      await buffers.roomForReply();
      if (ended) return;
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
      if (ended) return;
      if (pending.length >= 2 * service.config.maxQueuedRequests) {
        void guard(fail(buffers.flooded(pending.length)));
        return;
      }
      const bytes = framing.sizeOf(request);
      // While the drain loop runs, a request is being answered (or the session opens): this one waits.
      const refused = buffers.refusal(pending.length, draining !== undefined, bytes);
      if (refused) {
        pending.push({ refused });
      } else {
        buffers.queue(bytes);
        pending.push({ request, bytes });
      }
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
