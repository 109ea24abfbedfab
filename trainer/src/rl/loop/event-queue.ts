/** An unbounded queue of events with an awaitable `next` (many producers, one consumer). */
export class EventQueue<T> {
  private readonly items: T[] = [];
  private waiter: ((item: T | undefined) => void) | null = null;

  push(item: T): void {
    if (this.waiter) {
      const wake = this.waiter;
      this.waiter = null;
      wake(item);
    } else this.items.push(item);
  }

  /** The next event, or undefined after `timeoutMs` (so the caller can look around) or on abort. */
  next(timeoutMs: number, signal?: AbortSignal): Promise<T | undefined> {
    if (this.items.length) return Promise.resolve(this.items.shift());
    if (signal?.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const done = (item: T | undefined) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        this.waiter = null;
        resolve(item);
      };
      const aborted = () => done(undefined);
      const timer = setTimeout(() => done(undefined), timeoutMs);
      signal?.addEventListener('abort', aborted, { once: true });
      this.waiter = done;
    });
  }
}
