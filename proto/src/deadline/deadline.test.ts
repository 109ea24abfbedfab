import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeadlineExceededError, InfraError } from '../errors.js';
import { Deadline } from './deadline.js';

/** A promise settled by hand: stands in for work that answers late or never. */
function pending<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('Deadline: the time limit', () => {
  it('ends with DeadlineExceededError naming the operation once its time passes', async () => {
    vi.useFakeTimers();
    const deadline = new Deadline('step', { ms: 2_000 });
    const waiting = deadline.race(pending().promise);
    vi.advanceTimersByTime(1_999);
    expect(deadline.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    await expect(waiting).rejects.toThrow(new DeadlineExceededError('step did not finish within 2000 ms'));
    expect(deadline.expired).toBe(true);
  });

  it('ends with the error it is given for its time limit', async () => {
    vi.useFakeTimers();
    const deadline = new Deadline('episode e1', { ms: 50, timeoutError: (m) => new InfraError(m) });
    const waiting = deadline.race(pending().promise);
    vi.advanceTimersByTime(50);
    await expect(waiting).rejects.toThrow(new InfraError('episode e1 did not finish within 50 ms'));
  });

  it('says how long is left, and Infinity without a limit', () => {
    vi.useFakeTimers();
    const deadline = new Deadline('call', { ms: 1_000 });
    vi.advanceTimersByTime(400);
    expect(deadline.remainingMs()).toBe(600);
    expect(new Deadline('call').remainingMs()).toBe(Infinity);
    deadline.dispose();
  });

  it('a limit past what setTimeout can hold does not fire at once', () => {
    vi.useFakeTimers();
    const deadline = new Deadline('call', { ms: 2 ** 40 });
    vi.advanceTimersByTime(1_000);
    expect(deadline.aborted).toBe(false);
    deadline.dispose();
  });
});

describe('Deadline: abort and the caller signal', () => {
  it('race settles like the work while it runs, and with the reason once it ends', async () => {
    const deadline = new Deadline('step');
    await expect(deadline.race(Promise.resolve(7))).resolves.toBe(7);
    await expect(deadline.race(Promise.reject(new Error('no page')))).rejects.toThrow('no page');
    const late = pending();
    const raced = deadline.race(late.promise);
    const reason = new Error('page crashed');
    deadline.abort(reason);
    await expect(raced).rejects.toBe(reason);
    expect(deadline.isReason(reason)).toBe(true);
    expect(deadline.expired).toBe(false);
    // Work given up on may fail later without an unhandled rejection, and new races end at once.
    late.reject(new Error('target closed'));
    await expect(deadline.race(Promise.resolve(1))).rejects.toBe(reason);
  });

  it('ends with the caller signal reason, mapped when asked', async () => {
    const caller = new AbortController();
    const deadline = new Deadline('step', { signal: caller.signal, ms: 60_000 });
    const raced = deadline.race(pending().promise);
    caller.abort(new Error('user gave up'));
    await expect(raced).rejects.toThrow('user gave up');

    const mapped = new AbortController();
    const cancelled = new Error('the caller cancelled the step');
    const mapping = new Deadline('step', { signal: mapped.signal, cancelReason: () => cancelled });
    mapped.abort();
    await expect(mapping.race(pending().promise)).rejects.toBe(cancelled);
  });

  it('an already aborted caller signal ends it from the start', async () => {
    const deadline = new Deadline('state', { signal: AbortSignal.abort(), ms: 60_000 });
    expect(deadline.aborted).toBe(true);
    await expect(deadline.race(Promise.resolve(1))).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('keeps the first reason: the time limit after an abort, or a cancel after the time limit', async () => {
    vi.useFakeTimers();
    const caller = new AbortController();
    const deadline = new Deadline('step', { signal: caller.signal, ms: 10 });
    const first = new Error('page crashed');
    deadline.abort(first);
    vi.advanceTimersByTime(10);
    caller.abort(new Error('cancelled'));
    await expect(deadline.race(pending().promise)).rejects.toBe(first);

    const other = new AbortController();
    const timed = new Deadline('step', { signal: other.signal, ms: 10 });
    vi.advanceTimersByTime(10);
    other.abort(new Error('cancelled'));
    await expect(timed.race(pending().promise)).rejects.toBeInstanceOf(DeadlineExceededError);
  });

  it('sleep waits its time, and ends early when the deadline does', async () => {
    vi.useFakeTimers();
    const deadline = new Deadline('retry');
    const sleeping = deadline.sleep(100);
    vi.advanceTimersByTime(100);
    await expect(sleeping).resolves.toBeUndefined();
    const long = deadline.sleep(60_000);
    const reason = new Error('cancelled');
    deadline.abort(reason);
    await expect(long).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('Deadline: cleanup', () => {
  it('dispose stops the timer and lets go of the caller signal', () => {
    vi.useFakeTimers();
    const caller = new AbortController();
    const deadline = new Deadline('step', { signal: caller.signal, ms: 1_000 });
    expect(vi.getTimerCount()).toBe(1);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    deadline.dispose();
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    // After dispose neither the clock nor the caller ends it.
    vi.advanceTimersByTime(1_000);
    caller.abort();
    expect(deadline.aborted).toBe(false);
  });

  it('ending, by the clock or by abort, leaves no timer and no listener behind', async () => {
    vi.useFakeTimers();
    const caller = new AbortController();
    const timed = new Deadline('step', { signal: caller.signal, ms: 5 });
    vi.advanceTimersByTime(5);
    expect(timed.expired).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);

    const aborted = new Deadline('step', { signal: caller.signal, ms: 5_000 });
    aborted.abort(new Error('crash'));
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('a race that settled leaves no listener on the deadline signal', async () => {
    const deadline = new Deadline('step');
    await deadline.race(Promise.resolve(1));
    await deadline.race(Promise.reject(new Error('x'))).catch(() => undefined);
    expect(getEventListeners(deadline.signal, 'abort')).toHaveLength(0);
  });
});
