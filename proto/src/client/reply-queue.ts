/**
 * Replies that arrive in request order with no ids (OpenEnv's /ws, our gRPC Session stream): the
 * n-th reply answers the n-th request. A caller that gave up (deadline, abort) keeps its slot, so
 * its late reply is dropped and later replies still line up.
 */
export class ReplyQueue<R> {
  private readonly slots: { resolve(reply: R): void; reject(error: unknown): void }[] = [];

  get pending(): number {
    return this.slots.length;
  }

  /** Reserve the slot for the request about to be sent. */
  expect(): Promise<R> {
    return new Promise<R>((resolve, reject) => this.slots.push({ resolve, reject }));
  }

  deliver(reply: R): void {
    this.slots.shift()?.resolve(reply);
  }

  fail(error: unknown): void {
    this.slots.shift()?.reject(error);
  }

  failAll(error: unknown): void {
    for (const slot of this.slots.splice(0)) slot.reject(error);
  }
}
