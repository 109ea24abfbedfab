import type { Command as KitCommand, CommandContext as KitContext, OptionTable, Tool } from '@gauntlet/proto/cli';
import type { RedisWatch } from '@gauntlet/proto/rollout/queue';

export const TOOL = 'gauntlet-worker';

/** The kit's context (typed flag values, io, progress, signal) plus the Redis watches of the command's queues. */
export interface CommandContext<T extends OptionTable> extends KitContext<T> {
  /**
   * openConnection adds them: a signal while one is down stops the command at once, since
   * nothing can be drained or handed back without Redis.
   */
  watches: Set<RedisWatch>;
}

/** A command of the kit (flags from one table, `--help` written from it) whose run also sees the watches. */
export interface Command<T extends OptionTable> extends Omit<KitCommand<T>, 'run'> {
  /** Returns the exit code. */
  run(context: CommandContext<T>): Promise<number>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of commands with different tables
export type AnyCommand = Command<any>;

export function defineCommand<const T extends OptionTable>(command: Command<T>): Command<T> {
  return command;
}

export const WORKER_DESCRIPTION = [
  'The Gauntlet rollout tier: workers play GRPO groups of multi-turn, token-exact episodes',
  '(env server ⇄ policy server) from BullMQ queues on Redis and hand completed groups to the trainer.',
].join('\n');

export function workerTool(commands: readonly AnyCommand[]): Tool {
  return { name: TOOL, description: WORKER_DESCRIPTION, commands };
}

/** The command line is wrong (exit code 2): the kit's one UsageError. */
export { UsageError } from '@gauntlet/proto/cli';
