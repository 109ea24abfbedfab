/**
 * Runs calls one after another (a session's page is not safe for concurrent actions). A call
 * that gives up on its deadline still holds the queue until its work really finishes, so the
 * next call never races a half-done action.
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
