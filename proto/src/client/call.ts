import { Deadline } from '../deadline/deadline.js';

/** The step timeout the wire accepts at most (StepRequest.timeout_s). */
const MAX_STEP_TIMEOUT_S = 600;

/**
 * One client call's deadline and cancellation: ends when the caller aborts or its time passes
 * (with DeadlineExceededError), and hands the server what is left of it.
 */
export class CallContext extends Deadline {
  constructor(
    what: string,
    options: { signal?: AbortSignal | undefined; timeoutMs?: number | undefined },
    defaultTimeoutMs: number,
  ) {
    super(what, { ms: options.timeoutMs ?? defaultTimeoutMs, signal: options.signal });
  }

  /** What is left of the deadline as a server-side step timeout in seconds (undefined: none). */
  timeoutSeconds(): number | undefined {
    if (!Number.isFinite(this.endsAt)) return undefined;
    return Math.min(MAX_STEP_TIMEOUT_S, Math.max(0.001, this.remainingMs() / 1000));
  }
}
