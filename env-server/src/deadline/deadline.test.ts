import { describe, expect, it, vi } from 'vitest';
import { DeadlineExceededError } from '@gauntlet/proto';
import { Deadline, within } from './deadline.js';

/** A promise settled by hand: stands in for a browser call that answers late or never. */
function pending<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('Deadline', () => {
  it('ends with DEADLINE_EXCEEDED after its time, naming the operation', async () => {
    vi.useFakeTimers();
    try {
      const deadline = new Deadline('step', 2_000);
      const waiting = deadline.race(pending().promise);
      vi.advanceTimersByTime(2_000);
      await expect(waiting).rejects.toThrow(new DeadlineExceededError('step did not finish within 2000 ms'));
    } finally {
      vi.useRealTimers();
    }
  });

  it('race settles like the work while the deadline runs, and with the abort reason once it ends', async () => {
    const deadline = new Deadline('step');
    await expect(deadline.race(Promise.resolve(7))).resolves.toBe(7);
    const late = pending();
    const raced = deadline.race(late.promise);
    const reason = new Error('cancelled');
    deadline.abort(reason);
    await expect(raced).rejects.toBe(reason);
    expect(deadline.isReason(reason)).toBe(true);
    // Work given up on may fail later without an unhandled rejection, and new races end at once.
    late.reject(new Error('target closed'));
    await expect(deadline.race(Promise.resolve(1))).rejects.toBe(reason);
  });

  it('keeps the first abort reason', async () => {
    const deadline = new Deadline('step');
    const first = new Error('page crashed');
    deadline.abort(first);
    deadline.abort(new Error('cancelled'));
    await expect(deadline.race(pending().promise)).rejects.toBe(first);
  });

  it('sleep ends early on abort', async () => {
    const deadline = new Deadline('noop');
    const sleeping = deadline.sleep(60_000);
    const reason = new Error('deadline');
    deadline.abort(reason);
    await expect(sleeping).rejects.toBe(reason);
  });

  it('quiet tells commands that answered after the abort from commands that never answer', async () => {
    const deadline = new Deadline('step');
    const slow = pending();
    const stuck = pending();
    deadline.command(slow.promise).catch(() => undefined);
    deadline.abort(new Error('deadline'));
    slow.resolve();
    expect(await deadline.quiet(1_000)).toBe(true);
    deadline.command(stuck.promise).catch(() => undefined);
    expect(await deadline.quiet(20)).toBe(false);
  });
});

describe('within', () => {
  it('gives the value, or undefined when the time is up', async () => {
    expect(await within(Promise.resolve('v'), 1_000)).toBe('v');
    expect(await within(pending().promise, 10)).toBeUndefined();
  });
});
