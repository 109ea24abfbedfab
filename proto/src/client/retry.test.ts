import { describe, expect, it } from 'vitest';
import { CapacityError, InfraError, ValidationError } from '../errors.js';
import { CallContext } from './call.js';
import { withRetry, type RetryPolicy } from './retry.js';

const policy: RetryPolicy = { attempts: 4, initialDelayMs: 1, maxDelayMs: 4, retryOnCapacity: false };

function failing(errors: Error[]): { attempt: () => Promise<string>; calls: () => number } {
  let calls = 0;
  return {
    attempt: async () => {
      const error = errors[calls++];
      if (error) throw error;
      return 'open';
    },
    calls: () => calls,
  };
}

describe('withRetry (opening a session)', () => {
  const call = () => new CallContext('open', {}, 5_000);

  it('retries an unreachable server with backoff until it answers', async () => {
    const open = failing([new InfraError('ECONNREFUSED'), new InfraError('ECONNREFUSED')]);
    await expect(withRetry(policy, call(), open.attempt)).resolves.toBe('open');
    expect(open.calls()).toBe(3);
  });

  it('gives up after the configured attempts with the last error', async () => {
    const open = failing(Array.from({ length: 10 }, () => new InfraError('down')));
    await expect(withRetry(policy, call(), open.attempt)).rejects.toBeInstanceOf(InfraError);
    expect(open.calls()).toBe(4);
  });

  it('never retries bad input, and capacity only when asked to', async () => {
    const bad = failing([new ValidationError('bad')]);
    await expect(withRetry(policy, call(), bad.attempt)).rejects.toBeInstanceOf(ValidationError);
    expect(bad.calls()).toBe(1);
    const full = failing([new CapacityError(1, 1)]);
    await expect(withRetry(policy, call(), full.attempt)).rejects.toBeInstanceOf(CapacityError);
    const waitForSlot = failing([new CapacityError(1, 1)]);
    await expect(withRetry({ ...policy, retryOnCapacity: true }, call(), waitForSlot.attempt)).resolves.toBe('open');
  });

  it('does not back off past the call deadline', async () => {
    const open = failing(Array.from({ length: 10 }, () => new InfraError('down')));
    const slow: RetryPolicy = { ...policy, attempts: 10, initialDelayMs: 10_000, maxDelayMs: 10_000 };
    await expect(
      withRetry(slow, new CallContext('open', { timeoutMs: 1_000 }, 5_000), open.attempt),
    ).rejects.toBeInstanceOf(InfraError);
    expect(open.calls()).toBe(1);
  });
});
