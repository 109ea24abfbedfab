/**
 * No env server had a free session within the wait. The episode never started: a worker hands
 * its job back to the queue without spending a try, so capacity never drops a group.
 */
export class EnvBusyError extends Error {
  override name = 'EnvBusyError';
  constructor(waitedMs: number, urls: readonly string[], cause: unknown) {
    super(
      `no env session free within ${Math.round(waitedMs)} ms on ${urls.join(', ')} (${(cause as Error)?.message ?? 'at capacity'})`,
      { cause },
    );
  }
}
