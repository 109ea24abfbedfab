import { DeadlineExceededError } from '../errors.js';

/** The step timeout the wire accepts at most (StepRequest.timeout_s). */
const MAX_STEP_TIMEOUT_S = 600;

/**
 * One call's deadline and cancellation: a signal that fires when the caller aborts or the deadline
 * passes (with DeadlineExceededError), and the time left to hand to the server.
 */
export class CallContext {
  readonly deadline: number;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly unlink: () => void;

  constructor(
    what: string,
    options: { signal?: AbortSignal | undefined; timeoutMs?: number | undefined },
    defaultTimeoutMs: number,
  ) {
    const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
    this.deadline = Number.isFinite(timeoutMs) ? Date.now() + timeoutMs : Infinity;
    if (Number.isFinite(timeoutMs)) {
      this.timer = setTimeout(
        () => this.controller.abort(new DeadlineExceededError(`${what} did not finish within ${timeoutMs} ms`)),
        Math.max(0, timeoutMs),
      );
    }
    const outer = options.signal;
    const onAbort = () => this.controller.abort(outer?.reason);
    if (outer?.aborted) onAbort();
    else outer?.addEventListener('abort', onAbort, { once: true });
    this.unlink = () => outer?.removeEventListener('abort', onAbort);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  remainingMs(): number {
    return Math.max(0, this.deadline - Date.now());
  }

  /** What is left of the deadline as a server-side step timeout in seconds (undefined: none). */
  timeoutSeconds(): number | undefined {
    if (!Number.isFinite(this.deadline)) return undefined;
    return Math.min(MAX_STEP_TIMEOUT_S, Math.max(0.001, this.remainingMs() / 1000));
  }

  /** Settles with `work`, or rejects with the abort reason as soon as the call is cancelled. */
  guard<T>(work: Promise<T>): Promise<T> {
    const { signal } = this;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      work.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  /** Waits `ms` (a retry backoff), cut short by cancellation. */
  wait(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    return this.guard(new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))).finally(() =>
      clearTimeout(timer),
    );
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.unlink();
  }
}
