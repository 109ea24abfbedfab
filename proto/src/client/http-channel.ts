import { ExecutionError, InfraError, errorFromWire, type GauntletError, type WireError } from '../errors.js';
import type { Action } from '../wire/action.js';
import type { StepResult } from '../wire/observation.js';
import type { RecordReply, RecordRequest } from '../wire/record.js';
import type { ResetRequest } from '../wire/requests.js';
import type { State } from '../wire/state.js';
import type { CallContext } from './call.js';
import { sessionLost, type SessionChannel, type Transport } from './channel.js';

export interface HttpTarget {
  /** http:// or https:// base URL of the env server. */
  url: string;
  token?: string | undefined;
}

const SESSION_HEADER = 'x-session-id';

/** OpenEnv's HTTP routes with our stateful sessions: POST /sessions, then x-session-id on every call. */
export function httpTransport(target: HttpTarget): Transport {
  const base = target.url.replace(/\/+$/, '');
  return {
    name: 'http',
    target: base,
    open: (call) => HttpChannel.open(base, target.token, call),
    dispose: () => undefined,
  };
}

class HttpChannel implements SessionChannel {
  lost: GauntletError | undefined;

  private constructor(
    private readonly base: string,
    private readonly token: string | undefined,
    readonly sessionId: string,
  ) {}

  static async open(base: string, token: string | undefined, call: CallContext): Promise<HttpChannel> {
    const { session_id } = (await send(base, token, 'POST', '/sessions', {}, undefined, call)) as {
      session_id: string;
    };
    return new HttpChannel(base, token, session_id);
  }

  async reset(request: ResetRequest, call: CallContext): Promise<StepResult> {
    return (await this.call('POST', '/reset', request, call)) as StepResult;
  }

  async step(action: Action, call: CallContext): Promise<StepResult> {
    // The server stops the step at what is left of our deadline, so it does not run on unseen.
    const timeout = call.timeoutSeconds();
    return (await this.call(
      'POST',
      '/step',
      { action, ...(timeout === undefined ? {} : { timeout_s: timeout }) },
      call,
    )) as StepResult;
  }

  async state(call: CallContext): Promise<State> {
    return (await this.call('GET', '/state', undefined, call)) as State;
  }

  async record(request: RecordRequest, call: CallContext): Promise<RecordReply> {
    return (await this.call('POST', '/record', request, call)) as RecordReply;
  }

  async close(call: CallContext): Promise<void> {
    await this.call('DELETE', `/sessions/${encodeURIComponent(this.sessionId)}`, undefined, call).catch(
      (error: GauntletError) => {
        if (!this.lost) throw error;
      },
    );
    this.lost = sessionLost(this.sessionId, 'closed by the client');
  }

  private async call(method: string, path: string, body: unknown, call: CallContext): Promise<unknown> {
    if (this.lost) throw this.lost;
    try {
      return await send(this.base, this.token, method, path, body, this.sessionId, call);
    } catch (error) {
      // A restarted server no longer knows our id: the session (and its episode) is gone.
      if ((error as GauntletError).code === 'SESSION_NOT_FOUND') {
        this.lost = sessionLost(this.sessionId, (error as Error).message);
        throw this.lost;
      }
      throw error;
    }
  }
}

async function send(
  base: string,
  token: string | undefined,
  method: string,
  path: string,
  body: unknown,
  sessionId: string | undefined,
  call: CallContext,
): Promise<unknown> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  if (sessionId) headers[SESSION_HEADER] = sessionId;
  let response: Response;
  try {
    response = await fetch(base + path, {
      method,
      headers,
      signal: call.signal,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    if (call.signal.aborted) throw call.signal.reason;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new InfraError(
      `env server unreachable at ${base}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
    );
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (response.ok) return parsed;
  const wire = (parsed as { error?: WireError } | undefined)?.error;
  if (wire && typeof wire.name === 'string' && typeof wire.code === 'string') throw errorFromWire(wire);
  throw new ExecutionError(`${method} ${path} answered HTTP ${response.status}: ${text.slice(0, 300)}`);
}
