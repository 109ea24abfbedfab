import type { z } from 'zod';
import type { Action } from '../wire/action.js';
import type { StepResult } from '../wire/observation.js';
import type { RecordReply, RecordRequest } from '../wire/record.js';
import type { ResetRequest } from '../wire/requests.js';
import type { State } from '../wire/state.js';
import type { RetryPolicy } from './retry.js';

export type TransportName = 'ws' | 'http' | 'grpc';

/** Every call takes a deadline and/or a signal: nothing waits forever. */
export interface CallOptions {
  /** Cancels the call; it rejects with the signal's reason. The session stays usable. */
  signal?: AbortSignal;
  /**
   * Gives up after this long with DeadlineExceededError (default: the client's callTimeoutMs). A
   * step sends what is left of it to the server as the step timeout (HTTP, gRPC).
   */
  timeoutMs?: number;
}

/** Reset arguments as on the JSON wire; the client holds the session, so no session_id. */
export type ResetInput = Omit<z.input<typeof ResetRequest>, 'session_id'>;
export type ActionInput = z.input<typeof Action>;

/**
 * One environment session, whatever the transport. The first call opens the session; reset
 * after a lost session (server restart, dropped connection) opens a new one. Errors are the
 * server's typed errors (GauntletError subclasses, rebuilt by errorFromWire).
 */
export interface EnvClient {
  readonly transport: TransportName;
  /** Where it connects, e.g. `ws://127.0.0.1:8000/ws` or `grpc://127.0.0.1:50051`. */
  readonly target: string;
  /** The server's id for the session held, once one is open. */
  readonly sessionId: string | undefined;
  /**
   * Opens the session now, unless one is open (reset opens it on first use otherwise). Fails as
   * reset would: CapacityError when the server is full. A caller that must not spend an episode's
   * deadline waiting for a slot opens first, then resets.
   */
  open(options?: CallOptions): Promise<void>;
  reset(request?: ResetInput, options?: CallOptions): Promise<StepResult>;
  /** `action` is an action string such as `click('12')`, or `{action_str, metadata}`. */
  step(action: string | ActionInput, options?: CallOptions): Promise<StepResult>;
  state(options?: CallOptions): Promise<State>;
  /**
   * The next action the person took in a recording session (reset with `browser.record`): waits
   * up to `wait_s` (default 10) for one, then answers `step: null`. HTTP and WebSocket only.
   */
  record(request?: Omit<RecordRequest, 'session_id'>, options?: CallOptions): Promise<RecordReply>;
  /** Ends the session and frees its slot on the server; the client can reset again afterwards. */
  close(options?: CallOptions): Promise<void>;
}

export interface EnvClientOptions {
  /** Overrides the transport the URL scheme implies (e.g. `ws` for an http:// URL). */
  transport?: TransportName;
  /** Bearer token (HTTP header, WebSocket upgrade, gRPC metadata `authorization`). */
  token?: string;
  /** Default deadline of every call in ms (default 60 000, OpenEnv's per-reply limit). */
  callTimeoutMs?: number;
  /** Backoff for opening sessions when the server is unreachable or still starting. */
  retry?: Partial<RetryPolicy>;
  /** Check every reply against the wire schema (zod); off by default for speed, on in tests. */
  validateReplies?: boolean;
  /** Largest reply accepted in bytes (default 100 MB, like OpenEnv's client). */
  maxMessageBytes?: number;
  /** For grpcs:// with a private CA or self-signed certificate: the PEM to trust. */
  tlsCa?: Buffer | string;
}
