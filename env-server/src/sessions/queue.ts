/**
 * Runs calls one after another (a session's page is not safe for concurrent actions). A call
 * holds the queue until its work settles; the session runs each call under `supervise`, which
 * settles at the deadline plus a bounded grace (recycling the browser context when the work is
 * still running then), so the next call never races a half-done action and never waits forever.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  /** Calls queued or running; a busy session is never reaped as idle. */
  pending = 0;

  run<T>(work: () => Promise<T>): Promise<T> {
    this.pending += 1;
    const result = this.tail.then(work, work).finally(() => {
      this.pending -= 1;
    });
    this.tail = result.catch(() => undefined);
    return result;
  }
}
