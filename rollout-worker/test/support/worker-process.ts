import { join } from 'node:path';
import { ROOT, startProcess, type Started } from './process.js';

/** `gauntlet-worker run` as its own process (the built bin), resolved once it says it is ready. */
export function startWorker(args: string[]): Promise<Started> {
  return startProcess(
    process.execPath,
    [join(ROOT, 'rollout-worker/bin/cli.js'), 'run', '--no-metrics', '--policy', 'random', ...args],
    /^worker ready/,
  );
}
