interface Waiter<T> {
  settle(handover: T | undefined): void;
}

/**
 * The episodes of one worker waiting for an env session, oldest first. A session given back goes
 * straight to the oldest waiter, so no other worker can take its slot in between; a slot freed by
 * a closed session wakes the oldest to ask the servers again. Each waiter also asks again after
 * its own pause, since another worker may have freed a slot. `T` is what a handed-over session
 * is (EnvPool's: the server and the client holding it).
 */
export class SessionQueue<T> {
  private readonly waiters: Waiter<T>[] = [];

  get length(): number {
    return this.waiters.length;
  }

  /**
   * A session handed over, or undefined once `pauseMs` has passed or wake() chose this waiter
   * (ask the servers again). Rejects with the signal's reason when it fires first.
   */
  wait(pauseMs: number, signal?: AbortSignal): Promise<T | undefined> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise((resolve, reject) => {
      const onAbort = () => finish(() => reject(signal!.reason as Error));
      const timer = setTimeout(() => finish(() => resolve(undefined)), pauseMs);
      const waiter: Waiter<T> = { settle: (handover) => finish(() => resolve(handover)) };
      const finish = (then: () => void) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        then();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** Gives `handover` to the oldest waiter; false when nobody waits. */
  handOver(handover: T): boolean {
    const oldest = this.waiters[0];
    oldest?.settle(handover);
    return oldest !== undefined;
  }

  /** A slot was freed: the oldest waiter asks the servers now instead of after its pause. */
  wake(): void {
    this.waiters[0]?.settle(undefined);
  }
}
