import type { Pressure } from '../env/env-pool.js';

/**
 * Keeps a worker from taking episode jobs it has no env session for. While any of its episodes
 * waits for one, it takes at most one more job than the sessions it holds (that one asks for the
 * next free slot); each episode that gets a session without waiting lets it take one more, up to
 * `max`. So a worker that finds the env full does not sit on jobs that another worker, holding
 * sessions, could play now.
 */
export function followEnvCapacity(
  worker: { concurrency: number },
  envs: { onPressure(listener: (pressure: Pressure) => void): () => void },
  max: number,
): () => void {
  return envs.onPressure(({ event, waited, held, waiting }) => {
    const squeezed = event === 'wait' || waited || waiting > 0;
    const next = squeezed ? held + 1 : worker.concurrency + 1;
    worker.concurrency = Math.min(max, Math.max(1, next));
  });
}
