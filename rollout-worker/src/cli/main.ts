import { GauntletError } from '@gauntlet/proto';
import {
  commandHelp,
  consoleIo,
  parseOptions,
  progressTo,
  toolHelp,
  UsageError,
  type CommandIo,
} from '@gauntlet/proto/cli';
import type { RedisWatch } from '@gauntlet/proto/rollout/queue';
import { COMMANDS } from './commands/index.js';
import { TOOL, workerTool } from './command.js';

const WORKER = workerTool(COMMANDS);

/**
 * Runs one command line and returns the exit code (never exits itself). SIGINT / SIGTERM abort
 * the command's signal: `run` drains, the others stop. Expected errors print one line; only
 * bugs print a stack.
 */
export async function main(argv: string[], io: CommandIo = consoleIo, signal?: AbortSignal): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    const command = name === 'help' ? COMMANDS.find((c) => c.name === rest[0]) : undefined;
    io.out(command ? commandHelp(WORKER, command) : toolHelp(WORKER));
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(
      `${TOOL}: unknown command ${JSON.stringify(name)}; commands: ${COMMANDS.map((c) => c.name).join(', ')}. Run '${TOOL} --help'.`,
    );
    return 2;
  }
  const controller = new AbortController();
  const watches = new Set<RedisWatch>();
  // A command waiting on Redis cannot drain or hand anything back while it is down, and a second
  // signal means "now": either way the command is left behind and the exit code is 130.
  let forceStop!: (line: string) => void;
  const forced = new Promise<string>((resolve) => (forceStop = resolve));
  const stop = () => {
    const again = controller.signal.aborted;
    controller.abort(new Error('interrupted'));
    const down = [...watches].find((w) => w.state !== 'up');
    if (again) forceStop(`${TOOL} ${command.name}: interrupted again; stopping now`);
    else if (down)
      forceStop(`${TOOL} ${command.name}: interrupted while Redis at ${down.url} is unreachable; stopping now`);
  };
  if (!signal) {
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } else {
    signal.addEventListener('abort', stop, { once: true });
  }
  try {
    const parsed = parseOptions(command.options, { args: rest, positionals: command.positionals });
    if (parsed.help) {
      io.out(commandHelp(WORKER, command));
      return 0;
    }
    const progress = progressTo(io, `${TOOL} ${command.name}`);
    const run = command.run({ ...parsed, io, progress, signal: controller.signal, watches });
    const outcome = await Promise.race([run.then((code) => ({ code })), forced.then((line) => ({ line }))]);
    if ('line' in outcome) {
      io.err(outcome.line);
      return 130;
    }
    return controller.signal.aborted && command.name !== 'run' ? 130 : outcome.code;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${TOOL} ${command.name}: ${error.message}`);
      io.err(`Run '${TOOL} ${command.name} --help' for its flags.`);
      return 2;
    }
    if (controller.signal.aborted) {
      io.err(`${TOOL} ${command.name}: interrupted`);
      return 130;
    }
    if (error instanceof GauntletError) {
      io.err(`${TOOL} ${command.name}: ${error.message}`);
      return error.code === 'VALIDATION_ERROR' ? 2 : 1;
    }
    io.err(`${TOOL} ${command.name}: ${(error as Error)?.stack ?? String(error)}`);
    return 1;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
