import { runTool, type CommandIo, type Tool, type ToolExtension } from '@gauntlet/proto/cli';
import type { RedisWatch } from '@gauntlet/proto/rollout/queue';
import { COMMANDS } from './commands/index.js';
import { workerTool } from './command.js';

/**
 * Gives each command the Redis watches of its queues: a command waiting on Redis cannot drain or
 * hand anything back while it is down, so an interrupt then stops it at once (exit 130).
 */
function redisWatches(): ToolExtension {
  const watches = new Set<RedisWatch>();
  return {
    context: { watches },
    stopNow() {
      const down = [...watches].find((w) => w.state !== 'up');
      return down ? `interrupted while Redis at ${down.url} is unreachable; stopping now` : undefined;
    },
  };
}

/** `gauntlet-worker`: the kit runs it; a bad --policy or queue setting is a bad command line too (exit 2). */
export const WORKER: Tool = { ...workerTool(COMMANDS), validationIsUsage: true, prepare: redisWatches };

/**
 * Runs one command line and returns the exit code (never exits itself). SIGINT / SIGTERM (or
 * `signal`) abort the command's signal: `run` drains and exits with its own code, the others stop
 * with 130; a second signal stops at once.
 */
export function main(argv: string[], io?: CommandIo, signal?: AbortSignal): Promise<number> {
  return runTool(WORKER, argv, { ...(io ? { io } : {}), ...(signal ? { signal } : {}) });
}
