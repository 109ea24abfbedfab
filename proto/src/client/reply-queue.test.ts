import { describe, expect, it } from 'vitest';
import { ReplyQueue } from './reply-queue.js';

describe('ReplyQueue (in-order replies without ids)', () => {
  it('the n-th reply answers the n-th request', async () => {
    const queue = new ReplyQueue<string>();
    const first = queue.expect();
    const second = queue.expect();
    queue.deliver('a');
    queue.fail(new Error('b failed'));
    await expect(first).resolves.toBe('a');
    await expect(second).rejects.toThrow('b failed');
  });

  it('a request whose caller gave up still consumes its late reply', async () => {
    const queue = new ReplyQueue<string>();
    void queue.expect(); // abandoned by its caller (deadline)
    const next = queue.expect();
    queue.deliver('late reply to the abandoned request');
    queue.deliver('mine');
    await expect(next).resolves.toBe('mine');
  });

  it('failAll rejects everything pending', async () => {
    const queue = new ReplyQueue<string>();
    const pending = [queue.expect(), queue.expect()];
    queue.failAll(new Error('connection lost'));
    for (const p of pending) await expect(p).rejects.toThrow('connection lost');
    expect(queue.pending).toBe(0);
  });
});
