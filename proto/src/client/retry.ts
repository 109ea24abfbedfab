import { GauntletError } from '../errors.js';
import type { CallContext } from './call.js';

/** How opening a session is retried. Steps are never retried: they are not idempotent. */
export interface RetryPolicy {
  /** Tries in all, including the first (1 = no retry). */
  attempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
  /** Also wait out CAPACITY_REACHED (a busy shared server) instead of failing at once. */
  retryOnCapacity: boolean;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 5,
  initialDelayMs: 100,
  maxDelayMs: 2_000,
  retryOnCapacity: false,
};

/** Transient = the server is unreachable, restarting, or its browser is relaunching. */
export function isTransient(error: unknown, policy: RetryPolicy): boolean {
  if (!(error instanceof GauntletError)) return false;
  return (
    error.code === 'INFRA_ERROR' ||
    error.code === 'FACTORY_ERROR' ||
    (policy.retryOnCapacity && error.code === 'CAPACITY_REACHED')
  );
}

/** Exponential backoff with jitter, never past the call's deadline; the last error is rethrown. */
export async function withRetry<T>(policy: RetryPolicy, call: CallContext, attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= policy.attempts || !isTransient(error, policy) || call.signal.aborted) throw error;
      const delay = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (tries - 1)) * (0.5 + Math.random() / 2);
      if (delay >= call.remainingMs()) throw error;
      await call.sleep(delay);
    }
  }
}
