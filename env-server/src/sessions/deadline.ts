import { DeadlineExceededError } from '@gauntlet/proto';

/**
 * Runs `work` with an AbortSignal that fires after `ms`; the caller gets DEADLINE_EXCEEDED at the
 * deadline even if the work ignores the signal (the work itself keeps its queue slot until done).
 */
export async function withDeadline<T>(ms: number, what: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new DeadlineExceededError(`${what} did not finish within ${ms} ms`);
      controller.abort(error);
      reject(error);
    }, ms);
  });
  const running = work(controller.signal);
  running.catch(() => undefined);
  try {
    return await Promise.race([running, expired]);
  } finally {
    clearTimeout(timer);
  }
}
