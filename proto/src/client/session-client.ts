import type { z } from 'zod';
import { ExecutionError } from '../errors.js';
import { Action } from '../wire/action.js';
import { StepResult } from '../wire/observation.js';
import { RecordReply, RecordRequest } from '../wire/record.js';
import { ResetRequest } from '../wire/requests.js';
import { State } from '../wire/state.js';
import { parseOrThrow } from '../wire/validate.js';
import { CallContext } from './call.js';
import type { SessionChannel, Transport } from './channel.js';
import { DEFAULT_RETRY, withRetry, type RetryPolicy } from './retry.js';
import type { ActionInput, CallOptions, EnvClient, ResetInput, TransportName } from './types.js';

export interface SessionClientSettings {
  callTimeoutMs: number;
  retry: RetryPolicy;
  validateReplies: boolean;
}

/**
 * The EnvClient behaviour every transport shares: requests validated before they leave, a session
 * opened on first use (with backoff), deadlines and cancellation on every call, and a lost session
 * reported as SessionError until reset() opens a new one.
 */
export class SessionEnvClient implements EnvClient {
  private channel: SessionChannel | undefined;
  private opening: Promise<SessionChannel> | undefined;
  private readonly settings: SessionClientSettings;

  constructor(
    private readonly transportImpl: Transport,
    settings: Partial<Omit<SessionClientSettings, 'retry'>> & { retry?: Partial<RetryPolicy> | undefined } = {},
  ) {
    this.settings = {
      callTimeoutMs: 60_000,
      validateReplies: false,
      ...settings,
      retry: { ...DEFAULT_RETRY, ...settings.retry },
    };
  }

  get transport(): TransportName {
    return this.transportImpl.name;
  }

  get target(): string {
    return this.transportImpl.target;
  }

  get sessionId(): string | undefined {
    return this.channel && !this.channel.lost ? this.channel.sessionId : undefined;
  }

  async open(options?: CallOptions): Promise<void> {
    await this.run('open', options, (call) => this.channelFor(call, true));
  }

  async reset(request: ResetInput = {}, options?: CallOptions): Promise<StepResult> {
    const parsed = parseOrThrow(ResetRequest, request);
    return this.run('reset', options, async (call) => {
      const channel = await this.channelFor(call, true);
      try {
        return this.checked(StepResult, await channel.reset(parsed, call));
      } catch (error) {
        // The session turned out to be gone (an HTTP server that restarted): reset on a new one.
        if (error !== channel.lost) throw error;
        return this.checked(StepResult, await (await this.channelFor(call, true)).reset(parsed, call));
      }
    });
  }

  async step(action: string | ActionInput, options?: CallOptions): Promise<StepResult> {
    const parsed = parseOrThrow(Action, typeof action === 'string' ? { action_str: action } : action, [
      'body',
      'action',
    ]);
    return this.run('step', options, async (call) => {
      const channel = await this.channelFor(call, false);
      return this.checked(StepResult, await channel.step(parsed, call));
    });
  }

  state(options?: CallOptions): Promise<State> {
    return this.run('state', options, async (call) =>
      this.checked(State, await (await this.channelFor(call, false)).state(call)),
    );
  }

  record(request: Omit<RecordRequest, 'session_id'> = {}, options?: CallOptions): Promise<RecordReply> {
    const parsed = parseOrThrow(RecordRequest, request);
    // The server holds the call up to wait_s: the call's own deadline must outlast that.
    const waitMs = (parsed.wait_s ?? 10) * 1000;
    const timeoutMs = options?.timeoutMs ?? Math.max(this.settings.callTimeoutMs, waitMs + 30_000);
    return this.run('record', { ...options, timeoutMs }, async (call) =>
      this.checked(RecordReply, await (await this.channelFor(call, false)).record(parsed, call)),
    );
  }

  async close(options?: CallOptions): Promise<void> {
    const channel = this.channel ?? (await this.opening?.catch(() => undefined));
    this.channel = undefined;
    this.opening = undefined;
    try {
      if (channel && !channel.lost) await this.run('close', options, (call) => channel.close(call));
    } finally {
      this.transportImpl.dispose();
    }
  }

  private async run<T>(
    what: string,
    options: CallOptions | undefined,
    work: (call: CallContext) => Promise<T>,
  ): Promise<T> {
    const call = new CallContext(what, options ?? {}, this.settings.callTimeoutMs);
    try {
      return await call.race(work(call));
    } finally {
      call.dispose();
    }
  }

  /** The live channel; a lost one is reported, or replaced when `reopen` (reset) asks for it. */
  private async channelFor(call: CallContext, reopen: boolean): Promise<SessionChannel> {
    const current = this.channel;
    if (current?.lost && !reopen) throw current.lost;
    if (current && !current.lost) return current;
    this.channel = undefined;
    this.opening ??= withRetry(this.settings.retry, call, () => this.transportImpl.open(call)).finally(() => {
      this.opening = undefined;
    });
    this.channel = await this.opening;
    return this.channel;
  }

  private checked<S extends z.ZodType>(schema: S, reply: unknown): z.infer<S> {
    if (!this.settings.validateReplies) return reply as z.infer<S>;
    const result = schema.safeParse(reply);
    if (!result.success)
      throw new ExecutionError(`The server's reply does not match the wire schema: ${result.error.message}`);
    return result.data;
  }
}
