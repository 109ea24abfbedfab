import type { QueueConnection } from '@gauntlet/proto/rollout/queue';

/**
 * Runs `work` once the rollout queues' Redis answered (and refuses eviction), saying every change
 * of its state on the log; a Redis that cannot be reached at start ends the command (exit 1,
 * one line): no queues, no run.
 */
export async function withQueues<T>(
  connection: QueueConnection,
  o: { timeoutMs: number; signal: AbortSignal; label: string; log: (line: string) => void },
  work: () => Promise<T>,
): Promise<T> {
  const { watch } = connection;
  try {
    await watch.reachable(o.timeoutMs, o.signal);
    await watch.refuseEviction();
  } catch (error) {
    await watch.close();
    throw error;
  }
  watch.onChange((_state, line) => o.log(`${o.label}: ${line}`));
  try {
    return await work();
  } finally {
    await watch.close();
  }
}

/**
 * Resolves null once `signal` aborted while Redis is unreachable: without Redis a loop can
 * neither finish its step nor hand groups back, so a signal then stops at once (race it against
 * the loop).
 */
export function stranded(connection: QueueConnection, signal: AbortSignal): Promise<null> {
  const { watch } = connection;
  return new Promise<null>((resolve) => {
    const check = () => signal.aborted && !watch.up && resolve(null);
    signal.addEventListener('abort', check, { once: true });
    watch.onChange(check);
  });
}
