import { join } from 'node:path';
import { ROOT, startProcess, type Started } from './process.js';

export interface WorkerProcess extends Started {
  /** Its /metrics URL, when started with `metrics`. */
  metricsUrl: string | undefined;
}

/**
 * `gauntlet-worker run` as its own process (the built bin), resolved once it says it is ready;
 * with `metrics`, it serves /metrics on a free port; it plays `policy` (default random).
 */
export async function startWorker(
  args: string[],
  options: { metrics?: boolean; policy?: string } = {},
): Promise<WorkerProcess> {
  const metrics = options.metrics ? ['--metrics-port', '0'] : ['--no-metrics'];
  const started = await startProcess(
    process.execPath,
    [join(ROOT, 'rollout-worker/bin/cli.js'), 'run', ...metrics, '--policy', options.policy ?? 'random', ...args],
    /^worker ready.*?(?:; metrics (http:\/\/\S+))?$/,
  );
  return { ...started, metricsUrl: started.ready[1] };
}
