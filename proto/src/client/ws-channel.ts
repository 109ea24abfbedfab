import WebSocket from 'ws';
import {
  ExecutionError,
  InfraError,
  UnauthorizedError,
  ValidationError,
  errorFromCode,
  type GauntletError,
} from '../errors.js';
import type { Action } from '../wire/action.js';
import type { StepResult } from '../wire/observation.js';
import type { RecordReply, RecordRequest } from '../wire/record.js';
import type { ResetRequest } from '../wire/requests.js';
import type { State } from '../wire/state.js';
import type { WsServerFrame } from '../wire/ws.js';
import type { CallContext } from './call.js';
import { sessionLost, type SessionChannel, type Transport } from './channel.js';
import { ReplyQueue } from './reply-queue.js';

export interface WsTarget {
  /** ws:// or wss:// URL of the /ws endpoint. */
  url: string;
  token?: string | undefined;
  maxMessageBytes: number;
}

/** OpenEnv's WebSocket protocol: the connection is the session, one JSON reply per frame, in order. */
export function wsTransport(target: WsTarget): Transport {
  return { name: 'ws', target: target.url, open: (call) => WsChannel.open(target, call), dispose: () => undefined };
}

class WsChannel implements SessionChannel {
  sessionId = '';
  lost: GauntletError | undefined;
  private readonly replies = new ReplyQueue<WsServerFrame>();
  private readonly closed: Promise<void>;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => this.onFrame(data.toString()));
    // 'close' always follows 'error'; the close handler reports it.
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.once('close', (code, reason) => {
        this.onClose(code, reason.toString());
        resolve();
      }),
    );
  }

  /** Connects, then asks for the state: the server checks capacity on connect, so a reply means the session is ours. */
  static async open(target: WsTarget, call: CallContext): Promise<WsChannel> {
    const headers: Record<string, string> = target.token ? { authorization: `Bearer ${target.token}` } : {};
    const socket = new WebSocket(target.url, { headers, maxPayload: target.maxMessageBytes });
    const abort = () => socket.terminate();
    call.signal.addEventListener('abort', abort, { once: true });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('unexpected-response', (_request, response) => {
          reject(
            response.statusCode === 401
              ? new UnauthorizedError()
              : new InfraError(`${target.url} answered the upgrade with HTTP ${response.statusCode}`),
          );
          socket.terminate();
        });
        socket.once('error', (error) =>
          reject(new InfraError(`env server unreachable at ${target.url}: ${error.message}`)),
        );
        call.signal.addEventListener('abort', () => reject(call.signal.reason), { once: true });
      });
      const channel = new WsChannel(socket);
      const state = await call.race(channel.state());
      channel.sessionId = typeof state.session_id === 'string' ? state.session_id : '';
      return channel;
    } catch (error) {
      socket.terminate();
      throw error;
    } finally {
      call.signal.removeEventListener('abort', abort);
    }
  }

  async reset(request: ResetRequest): Promise<StepResult> {
    return replyData(await this.request({ type: 'reset', data: request }), 'observation') as StepResult;
  }

  async step(action: Action, call: CallContext): Promise<StepResult> {
    // OpenEnv puts the action's fields directly in `data`; our server also reads the frame's
    // `timeout_s`, so it stops the step at what is left of our deadline.
    const timeout = call.timeoutSeconds();
    return replyData(
      await this.request({ type: 'step', data: action, ...(timeout === undefined ? {} : { timeout_s: timeout }) }),
      'observation',
    ) as StepResult;
  }

  async state(): Promise<State> {
    return replyData(await this.request({ type: 'state' }), 'state') as State;
  }

  async record(request: RecordRequest): Promise<RecordReply> {
    return replyData(await this.request({ type: 'record', data: request }), 'record') as RecordReply;
  }

  async close(call: CallContext): Promise<void> {
    if (this.lost) return;
    this.socket.send(JSON.stringify({ type: 'close' }));
    await call.race(this.closed);
  }

  private request(frame: object): Promise<WsServerFrame> {
    if (this.lost) return Promise.reject(this.lost);
    const reply = this.replies.expect();
    this.socket.send(JSON.stringify(frame));
    return reply;
  }

  private onFrame(text: string): void {
    let frame: WsServerFrame;
    try {
      frame = JSON.parse(text) as WsServerFrame;
    } catch {
      this.replies.fail(new ValidationError(`The server sent a frame that is not JSON: ${text.slice(0, 200)}`));
      return;
    }
    if (frame.type === 'error') {
      const { code, message, name, ...details } = frame.data;
      this.replies.fail(errorFromCode(code, message, details, name));
    } else {
      this.replies.deliver(frame);
    }
  }

  private onClose(code: number, reason: string): void {
    this.lost = sessionLost(this.sessionId, `the WebSocket closed (${code}${reason ? ` ${reason}` : ''})`);
    // 1009: the server refused a frame over its size limit; that request gets the precise error.
    if (code === 1009)
      this.replies.fail(
        errorFromCode(
          'PAYLOAD_TOO_LARGE',
          `The server closed the connection: a frame exceeded its size limit (1009 ${reason})`,
        ),
      );
    this.replies.failAll(this.lost);
  }
}

function replyData(frame: WsServerFrame, type: 'observation' | 'state' | 'record'): unknown {
  if (frame.type !== type) throw new ExecutionError(`Expected a ${type} frame, got ${JSON.stringify(frame.type)}`);
  return frame.data;
}
