import { DeadlineExceededError } from '@gauntlet/proto';

/**
 * The one progress controller for a long operation (a step, a reset, a task setup): a time limit
 * and an abort, which every wait inside the operation races. Browser calls cannot be cancelled,
 * so giving up only stops the waiting; calls raced as `command` stay tracked until they answer,
 * which tells a page that merely got slow from one that stopped answering input (`quiet`).
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class Deadline {
  private readonly controller = new AbortController();
  private readonly commands = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;

  /** `ms` from now it aborts with DEADLINE_EXCEEDED; without `ms` only `abort` ends it. */
  constructor(what = 'the operation', ms?: number) {
    if (ms !== undefined) {
      this.timer = setTimeout(
        () => this.abort(new DeadlineExceededError(`${what} did not finish within ${Math.round(ms)} ms`)),
        ms,
      );
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.controller.signal.aborted;
  }

  /** Whether `error` is this deadline's own abort reason (the operation was stopped, it did not fail). */
  isReason(error: unknown): boolean {
    return this.aborted && error === this.controller.signal.reason;
  }

  /** Ends the operation now with `reason` (a crash, a cancelled call); the first reason wins. */
  abort(reason: unknown): void {
    this.dispose();
    this.controller.abort(reason);
  }

  throwIfAborted(): void {
    this.controller.signal.throwIfAborted();
  }

  /** Settles like `work`, or rejects with the abort reason as soon as the operation is over. */
  race<T>(work: Promise<T>): Promise<T> {
    // Work given up on may still fail later; nobody is listening then.
    work.catch(() => undefined);
    const signal = this.controller.signal;
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /**
   * `race` for a browser command that answers at once on a healthy page (mouse, keyboard): it
   * is tracked until it answers, so `quiet` can tell when the page stopped taking input.
   */
  command<T>(work: Promise<T>): Promise<T> {
    this.commands.add(work);
    const forget = () => this.commands.delete(work);
    work.then(forget, forget);
    return this.race(work);
  }

  /** Waits `ms`, or rejects with the abort reason when the operation ends first. */
  sleep(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    // setTimeout fires at once beyond 2^31-1 ms; the deadline ends any longer wait anyway.
    const elapsed = new Promise<void>(
      (resolve) => (timer = setTimeout(resolve, Math.min(Math.max(0, ms), MAX_TIMER_MS))),
    );
    return this.race(elapsed).finally(() => clearTimeout(timer));
  }

  /** True once every command has answered; false when some are still unanswered after `graceMs`. */
  async quiet(graceMs: number): Promise<boolean> {
    if (this.commands.size === 0) return true;
    const answered = Promise.allSettled([...this.commands]).then(() => true);
    return (await within(answered, graceMs)) ?? false;
  }

  /** Stops the timer (the operation finished); the signal stays as it is. */
  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** Resolves with `work`, or with undefined after `ms`, whichever comes first; never rejects on the timeout. */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms), undefined)));
  try {
    return await Promise.race([work, elapsed]);
  } finally {
    clearTimeout(timer);
  }
}
