import { describe, expect, it, vi } from 'vitest';
import { within } from './within.js';

describe('within', () => {
  it('gives the value, or undefined when the time is up, and leaves no timer', async () => {
    expect(await within(Promise.resolve('v'), 1_000)).toBe('v');
    expect(await within(new Promise(() => undefined), 10)).toBeUndefined();
    vi.useFakeTimers();
    try {
      await within(Promise.resolve(1), 1_000);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('rejects like the work does', async () => {
    await expect(within(Promise.reject(new Error('gone')), 1_000)).rejects.toThrow('gone');
  });
});
