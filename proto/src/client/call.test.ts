import { describe, expect, it } from 'vitest';
import { DeadlineExceededError } from '../errors.js';
import { CallContext } from './call.js';

const never = new Promise<never>(() => undefined);

describe('CallContext', () => {
  it('ends with DeadlineExceededError at its own timeout, or at the default one', async () => {
    const call = new CallContext('step', { timeoutMs: 10 }, 60_000);
    await expect(call.race(never)).rejects.toThrow(new DeadlineExceededError('step did not finish within 10 ms'));
    const byDefault = new CallContext('state', {}, 10);
    await expect(byDefault.race(never)).rejects.toThrow(new DeadlineExceededError('state did not finish within 10 ms'));
  });

  it('rejects with the caller signal reason on abort', async () => {
    const controller = new AbortController();
    const call = new CallContext('step', { signal: controller.signal }, 60_000);
    const pending = call.race(never);
    controller.abort(new Error('user gave up'));
    await expect(pending).rejects.toThrow('user gave up');
    call.dispose();
  });

  it('hands the server what is left of the deadline, capped at the wire maximum', () => {
    const short = new CallContext('step', { timeoutMs: 2_000 }, 60_000);
    expect(short.timeoutSeconds()).toBeGreaterThan(1.9);
    expect(short.timeoutSeconds()).toBeLessThanOrEqual(2);
    const long = new CallContext('step', { timeoutMs: 3_600_000 }, 60_000);
    expect(long.timeoutSeconds()).toBe(600);
    expect(new CallContext('step', { timeoutMs: Infinity }, 60_000).timeoutSeconds()).toBeUndefined();
    for (const call of [short, long]) call.dispose();
  });
});
