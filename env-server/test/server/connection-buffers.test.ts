import { afterEach, describe, expect, it, vi } from 'vitest';
import { PayloadTooLargeError } from '@gauntlet/proto';
import { BufferBudget } from '../../src/server/buffer-budget.js';
import { ConnectionBuffers, type BufferLimits } from '../../src/server/connection-buffers.js';

const LIMITS: BufferLimits = {
  maxQueuedRequests: 3,
  maxQueuedBytes: 100,
  maxUnreadReplyBytes: 50,
  unreadReplyTimeoutMs: 1_000,
};

function connection(
  budget = new BufferBudget(1_000),
  onUnread: (error: PayloadTooLargeError) => void = () => undefined,
) {
  return new ConnectionBuffers(LIMITS, budget, onUnread);
}

afterEach(() => vi.useRealTimers());

describe('what one connection may buffer', () => {
  it('refuses a request past the count or byte limit, but one always fits an empty queue', () => {
    const buffers = connection();
    expect(buffers.refusal(0, true, 400)).toBeUndefined();
    buffers.queue(60);
    expect(buffers.refusal(1, true, 41)?.message).toContain('--max-queued-bytes');
    expect(buffers.refusal(1, true, 40)).toBeUndefined();
    expect(buffers.refusal(3, true, 1)?.message).toContain('--max-queued-requests 3');
    buffers.dequeue(60);
    expect(buffers.refusal(0, true, 100)).toBeUndefined();
  });

  it('refuses what would take the server past --max-buffered-bytes, across connections', () => {
    const budget = new BufferBudget(150);
    const first = connection(budget);
    const second = connection(budget);
    first.queue(90);
    second.sent(50);
    const refused = second.refusal(0, true, 20);
    expect(refused).toBeInstanceOf(PayloadTooLargeError);
    expect(refused?.message).toContain('--max-buffered-bytes');
    // A request answered at once is not held: what others hold never refuses it.
    expect(second.refusal(0, false, 20)).toBeUndefined();
    // A connection that ends gives back everything it held, flushed or not.
    first.close();
    second.close();
    expect(budget.usedBytes).toBe(0);
    expect(connection(budget).refusal(0, true, 150)).toBeUndefined();
  });

  it('holds the next reply back while too much is unread, and lets it go once the client reads', async () => {
    const buffers = connection();
    const flushed = buffers.sent(80);
    let room = false;
    const waiting = buffers.roomForReply().then(() => (room = true));
    await Promise.resolve();
    expect(room).toBe(false);
    flushed();
    await waiting;
    expect(room).toBe(true);
    flushed(); // a second call changes nothing
    await buffers.roomForReply();
  });

  it('reports replies unread past the timeout once, with the limits named', () => {
    vi.useFakeTimers();
    const reports: PayloadTooLargeError[] = [];
    const buffers = connection(new BufferBudget(1_000), (error) => reports.push(error));
    buffers.sent(30);
    buffers.sent(30);
    vi.advanceTimersByTime(999);
    expect(reports).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(reports).toHaveLength(1);
    expect(reports[0]!.code).toBe('PAYLOAD_TOO_LARGE');
    expect(reports[0]!.message).toContain('--unread-reply-timeout-ms');
  });

  it('stops the unread timer when the client catches up', () => {
    vi.useFakeTimers();
    const reports: PayloadTooLargeError[] = [];
    const buffers = connection(new BufferBudget(1_000), (error) => reports.push(error));
    const flushed = buffers.sent(80);
    vi.advanceTimersByTime(500);
    flushed();
    vi.advanceTimersByTime(5_000);
    expect(reports).toEqual([]);
  });
});
