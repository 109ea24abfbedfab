import { DeadlineExceededError } from '../errors.js';

/** setTimeout fires at once past 2^31-1 ms; no wait here is meant to be that long. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface DeadlineOptions {
  /** Time limit from now; without one (or Infinity) only `abort` and `signal` end it. */
  ms?: number | undefined;
  /** The caller's cancellation: when it fires the deadline ends too. */
  signal?: AbortSignal | undefined;
  /** The reason the deadline ends with when `signal` fires (default: the signal's own reason). */
  cancelReason?: ((signalReason: unknown) => unknown) | undefined;
  /** The error the time limit ends with (default: DeadlineExceededError). */
  timeoutError?: ((message: string) => Error) | undefined;
}

/**
 * The one race of a long operation against its time limit and its caller's cancellation (a
 * client call, an episode, an env step): every wait inside the operation races it, and the first
 * reason it ends with is the one everybody sees. `dispose` stops its timer and lets go of the
 * caller's signal once the operation is over, so nothing outlives it.
 */
export class Deadline {
  /** When the time limit passes (epoch ms; Infinity: never). */
  readonly endsAt: number;
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private timeoutReason: unknown;
  private unlink: (() => void) | undefined;

  constructor(what = 'the operation', options: DeadlineOptions = {}) {
    const ms = options.ms ?? Infinity;
    this.endsAt = Number.isFinite(ms) ? Date.now() + ms : Infinity;
    if (Number.isFinite(ms)) {
      const makeError = options.timeoutError ?? ((message: string) => new DeadlineExceededError(message));
      this.timer = setTimeout(
        () => {
          this.timeoutReason = makeError(`${what} did not finish within ${Math.round(ms)} ms`);
          this.abort(this.timeoutReason);
        },
        Math.min(Math.max(0, ms), MAX_TIMER_MS),
      );
    }
    const outer = options.signal;
    if (!outer) return;
    const onCancel = () => this.abort(options.cancelReason ? options.cancelReason(outer.reason) : outer.reason);
    if (outer.aborted) {
      onCancel();
      return;
    }
    outer.addEventListener('abort', onCancel, { once: true });
    this.unlink = () => outer.removeEventListener('abort', onCancel);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.controller.signal.aborted;
  }

  /** Whether the time limit (not an abort or the caller) ended it. */
  get expired(): boolean {
    return this.timeoutReason !== undefined && this.controller.signal.reason === this.timeoutReason;
  }

  /** Whether `error` is this deadline's own reason (the operation was stopped, it did not fail). */
  isReason(error: unknown): boolean {
    return this.aborted && error === this.controller.signal.reason;
  }

  /** Ends the operation now with `reason`; the first reason wins. */
  abort(reason: unknown): void {
    this.dispose();
    this.controller.abort(reason);
  }

  throwIfAborted(): void {
    this.controller.signal.throwIfAborted();
  }

  remainingMs(): number {
    return Math.max(0, this.endsAt - Date.now());
  }

  /** Settles like `work`, or rejects with the reason as soon as the deadline ends (even if `work` ignores it). */
  race<T>(work: Promise<T>): Promise<T> {
    // Work given up on may still fail later; nobody is listening then.
    work.catch(() => undefined);
    const signal = this.controller.signal;
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(signal.reason as Error);
      signal.addEventListener('abort', onAbort, { once: true });
      work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /** Waits `ms` (a backoff, a poll), or rejects with the reason when the deadline ends first. */
  sleep(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const elapsed = new Promise<void>(
      (resolve) => (timer = setTimeout(resolve, Math.min(Math.max(0, ms), MAX_TIMER_MS))),
    );
    return this.race(elapsed).finally(() => clearTimeout(timer));
  }

  /** The operation is over: stops the timer and lets go of the caller's signal; the signal here stays as it is. */
  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.unlink?.();
    this.unlink = undefined;
  }
}
