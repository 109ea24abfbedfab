import { Metadata, credentials, status as Status, type ClientDuplexStream, type ServiceError } from '@grpc/grpc-js';
import { ExecutionError, ValidationError, type GauntletError } from '../errors.js';
import type { RecordReply } from '../wire/record.js';
import type { Action } from '../wire/action.js';
import type { StepResult } from '../wire/observation.js';
import type { ResetRequest } from '../wire/requests.js';
import type { State } from '../wire/state.js';
import { envGrpc } from '../grpc/definition.js';
import { stateFromMessage, stepResultFromMessage } from '../grpc/convert-result.js';
import { errorFromMessage, resetRequestToMessage, stepRequestToMessage } from '../grpc/convert-requests.js';
import { SESSION_ID_METADATA, errorFromStatus } from '../grpc/status.js';
import type * as pb from '../grpc/messages.js';
import type { CallContext } from './call.js';
import { sessionLost, type SessionChannel, type Transport } from './channel.js';
import { ReplyQueue } from './reply-queue.js';

export interface GrpcTarget {
  /** host:port */
  address: string;
  tls: boolean;
  tlsCa?: Buffer | string | undefined;
  token?: string | undefined;
  maxMessageBytes: number;
}

type SessionStream = ClientDuplexStream<pb.SessionRequest, pb.SessionReplyOut>;

/** The EnvService.Session stream: one stream per session, replies in request order, like /ws. */
export function grpcTransport(target: GrpcTarget): Transport {
  let client: pb.EnvServiceClient | undefined;
  const scheme = target.tls ? 'grpcs' : 'grpc';
  return {
    name: 'grpc',
    target: `${scheme}://${target.address}`,
    open(call) {
      client ??= new (envGrpc().EnvService)(
        target.address,
        target.tls
          ? credentials.createSsl(target.tlsCa ? Buffer.from(target.tlsCa) : null)
          : credentials.createInsecure(),
        {
          'grpc.max_receive_message_length': target.maxMessageBytes,
          // Reconnect about as fast as the retry policy asks after a server restart.
          'grpc.initial_reconnect_backoff_ms': 100,
          'grpc.max_reconnect_backoff_ms': 2_000,
        },
      );
      return GrpcChannel.open(client, target, call);
    },
    dispose() {
      // Not client.close(): grpc-js aliases the service's Close RPC as `close` on the client.
      client?.getChannel().close();
      client = undefined;
    },
  };
}

class GrpcChannel implements SessionChannel {
  lost: GauntletError | undefined;
  private readonly replies = new ReplyQueue<pb.SessionReplyOut>();
  private readonly ended: Promise<void>;

  private constructor(
    private readonly stream: SessionStream,
    readonly sessionId: string,
    target: string,
  ) {
    stream.on('data', (reply: pb.SessionReplyOut) => {
      if (reply.kind === 'error' && reply.error) this.replies.fail(errorFromMessage(reply.error));
      else this.replies.deliver(reply);
    });
    this.ended = new Promise((resolve) => {
      stream.on('error', (error: ServiceError) => {
        const typed = errorFromStatus(error, target);
        this.lost = sessionLost(sessionId, typed.message);
        // An oversize request is that request's own fault: it gets the precise error.
        if (error.code === Status.RESOURCE_EXHAUSTED) this.replies.fail(typed);
        this.replies.failAll(this.lost);
        resolve();
      });
      stream.on('end', () => {
        this.lost ??= sessionLost(sessionId, 'the server ended the stream');
        this.replies.failAll(this.lost);
        resolve();
      });
    });
  }

  /** Opens the stream; the server sends `x-session-id` once the session is open (capacity checked). */
  static open(client: pb.EnvServiceClient, target: GrpcTarget, call: CallContext): Promise<GrpcChannel> {
    const metadata = new Metadata();
    if (target.token) metadata.set('authorization', `Bearer ${target.token}`);
    const stream = client.Session(metadata);
    const where = `${target.tls ? 'grpcs' : 'grpc'}://${target.address}`;
    return new Promise<GrpcChannel>((resolve, reject) => {
      const fail = (error: unknown) => {
        cleanup();
        stream.cancel();
        reject(error);
      };
      const onMetadata = (headers: Metadata) => {
        const id = headers.get(SESSION_ID_METADATA)[0];
        if (!id) return; // trailers-only answers carry no id; the error event follows
        cleanup();
        resolve(new GrpcChannel(stream, String(id), where));
      };
      const onError = (error: ServiceError) => fail(errorFromStatus(error, where));
      const onAbort = () => fail(call.signal.reason);
      const cleanup = () => {
        stream.off('metadata', onMetadata);
        stream.off('error', onError);
        call.signal.removeEventListener('abort', onAbort);
      };
      stream.on('metadata', onMetadata);
      stream.on('error', onError);
      call.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  async reset(request: ResetRequest): Promise<StepResult> {
    return stepResultFromMessage(expectKind(await this.request({ reset: resetRequestToMessage(request) }), 'result'));
  }

  async step(action: Action, call: CallContext): Promise<StepResult> {
    return stepResultFromMessage(
      expectKind(await this.request({ step: stepRequestToMessage(action, call.timeoutSeconds()) }), 'result'),
    );
  }

  async state(): Promise<State> {
    return stateFromMessage(expectKind(await this.request({ state: {} }), 'state'));
  }

  /** Recording is an interactive, local affair: the agent reaches its env over HTTP or /ws. */
  async record(): Promise<RecordReply> {
    throw new ValidationError('record is served over HTTP and WebSocket (http:// or ws:// env URL), not gRPC');
  }

  async close(call: CallContext): Promise<void> {
    if (this.lost) return;
    this.stream.write({ close: {} });
    this.stream.end();
    await call.race(this.ended);
  }

  private request(message: pb.SessionRequest): Promise<pb.SessionReplyOut> {
    if (this.lost) return Promise.reject(this.lost);
    const reply = this.replies.expect();
    this.stream.write(message);
    return reply;
  }
}

function expectKind<K extends 'result' | 'state'>(
  reply: pb.SessionReplyOut,
  kind: K,
): NonNullable<pb.SessionReplyOut[K]> {
  const part = reply[kind];
  if (reply.kind !== kind || !part)
    throw new ExecutionError(`Expected a ${kind} reply, got ${JSON.stringify(reply.kind)}`);
  return part as NonNullable<pb.SessionReplyOut[K]>;
}
