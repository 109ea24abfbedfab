import { PayloadTooLargeError } from '@gauntlet/proto';
import type { BufferBudget } from './buffer-budget.js';

export interface BufferLimits {
  maxQueuedRequests: number;
  maxQueuedBytes: number;
  maxUnreadReplyBytes: number;
  unreadReplyTimeoutMs: number;
}

/**
 * What one streaming connection holds in this process: the bytes of its waiting requests and of
 * the replies its client has not taken yet. Requests past the limits are refused; replies past
 * theirs hold the connection back until the client reads, and a client that does not read within
 * `unreadReplyTimeoutMs` is told so by `onUnread` (the connection then closes).
 */
export class ConnectionBuffers {
  private queued = 0;
  private unread = 0;
  private closed = false;
  private overdue: NodeJS.Timeout | undefined;
  private readonly roomWaiters: (() => void)[] = [];

  constructor(
    private readonly limits: BufferLimits,
    private readonly budget: BufferBudget,
    private readonly onUnread: (error: PayloadTooLargeError) => void,
  ) {}

  /**
   * Why a request of `bytes` may not join the `waiting` ones already queued, if it may not.
   * `mustWait`: another request is being answered, so this one would be held. A request answered
   * at once is never refused for what other connections hold: a client that sends one request at
   * a time is never refused at all.
   */
  refusal(waiting: number, mustWait: boolean, bytes: number): PayloadTooLargeError | undefined {
    const { maxQueuedRequests, maxQueuedBytes } = this.limits;
    if (waiting >= maxQueuedRequests)
      return new PayloadTooLargeError(
        maxQueuedBytes,
        `${waiting} requests already wait for their replies on this connection (--max-queued-requests ${maxQueuedRequests}); read replies before sending more`,
      );
    // One request always fits an empty queue: the frame or message limit already bounds its size.
    if (this.queued > 0 && this.queued + bytes > maxQueuedBytes)
      return new PayloadTooLargeError(
        maxQueuedBytes,
        `The requests waiting on this connection would hold ${this.queued + bytes} bytes, over the ${maxQueuedBytes}-byte limit (--max-queued-bytes); read replies before sending more`,
      );
    if (mustWait && !this.budget.fits(bytes))
      return new PayloadTooLargeError(
        this.budget.limitBytes,
        `The server already buffers ${this.budget.usedBytes} bytes for its connections, its ${this.budget.limitBytes}-byte limit (--max-buffered-bytes); retry later`,
      );
    return undefined;
  }

  /** More waiting requests than a client that reads its replies ever sends: the connection closes. */
  flooded(waiting: number): PayloadTooLargeError {
    return new PayloadTooLargeError(
      this.limits.maxQueuedBytes,
      `${waiting} requests sent ahead of their replies, twice --max-queued-requests (${this.limits.maxQueuedRequests}); the connection is closed`,
    );
  }

  queue(bytes: number): void {
    this.queued += bytes;
    this.budget.take(bytes);
  }

  dequeue(bytes: number): void {
    if (this.closed) return;
    this.queued -= bytes;
    this.budget.give(bytes);
  }

  /** A reply of `bytes` went to the transport; call the returned function once it left the process. */
  sent(bytes: number): () => void {
    if (this.closed) return () => undefined;
    this.unread += bytes;
    this.budget.take(bytes);
    if (this.unread > this.limits.maxUnreadReplyBytes) this.armOverdue();
    let flushed = false;
    return () => {
      if (flushed || this.closed) return;
      flushed = true;
      this.unread -= bytes;
      this.budget.give(bytes);
      if (this.unread <= this.limits.maxUnreadReplyBytes) this.wake();
    };
  }

  /** Resolves once the client has taken enough replies for another to be answered, or the connection ended. */
  roomForReply(): Promise<void> {
    if (this.closed || this.unread <= this.limits.maxUnreadReplyBytes) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  /** The connection ended: whatever it held is given back (replies still in flight included). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.budget.give(this.queued + this.unread);
    this.queued = 0;
    this.unread = 0;
    this.wake();
  }

  private armOverdue(): void {
    if (this.overdue) return;
    this.overdue = setTimeout(() => {
      this.overdue = undefined;
      const { maxUnreadReplyBytes, unreadReplyTimeoutMs } = this.limits;
      this.onUnread(
        new PayloadTooLargeError(
          maxUnreadReplyBytes,
          `${this.unread} bytes of replies stayed unread for ${unreadReplyTimeoutMs} ms, over the ${maxUnreadReplyBytes}-byte limit (--max-unread-reply-bytes, --unread-reply-timeout-ms); the connection is closed`,
        ),
      );
    }, this.limits.unreadReplyTimeoutMs);
    this.overdue.unref();
  }

  private wake(): void {
    clearTimeout(this.overdue);
    this.overdue = undefined;
    for (const resolve of this.roomWaiters.splice(0)) resolve();
  }
}
