import { GauntletError } from '../errors.js';
import { closestName } from './closest.js';
import { commandHelp, toolHelp } from './help.js';
import type { Tool } from './command.js';
import { parseOptions } from './parse.js';
import { consoleIo, progressTo, type CommandIo } from './progress.js';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_USAGE, UsageError } from './usage-error.js';

export interface RunToolOptions {
  io?: CommandIo;
  env?: NodeJS.ProcessEnv;
  /** Default: SIGINT / SIGTERM of this process. */
  signal?: AbortSignal;
}

/**
 * Runs one command line of `tool` and returns the exit code (never exits itself). Usage errors
 * print one line naming the flag (exit 2); expected errors print their message (exit 1); only
 * bugs print a stack.
 */
export async function runTool(tool: Tool, argv: string[], options: RunToolOptions = {}): Promise<number> {
  const io = options.io ?? consoleIo;
  const defaulted =
    tool.defaultCommand !== undefined && (argv[0] === undefined || (argv[0].startsWith('-') && !isHelp(argv[0])));
  const [name, ...rest] = defaulted ? [tool.defaultCommand!, ...argv] : argv;
  if (name === undefined || isHelp(name)) {
    (name === undefined ? io.err : io.out)(toolHelp(tool));
    return name === undefined ? EXIT_USAGE : 0;
  }
  const command = tool.commands.find((c) => c.name === name);
  if (!command) {
    const names = tool.commands.map((c) => c.name);
    const guess = closestName(name, names);
    io.err(
      `${tool.name}: unknown command ${JSON.stringify(name)}${guess ? ` (did you mean ${guess}?)` : ''}; commands: ${names.join(', ')}`,
    );
    return EXIT_USAGE;
  }
  const controller = new AbortController();
  const stop = () => controller.abort(new Error('interrupted'));
  if (options.signal) options.signal.addEventListener('abort', stop, { once: true });
  else if (!command.ownsSignals) {
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  }
  const prefix = `${tool.name} ${command.name}`;
  try {
    const parsed = parseOptions(command.options, { args: rest, positionals: command.positionals, env: options.env });
    if (parsed.help) {
      io.out(commandHelp(tool, command));
      return 0;
    }
    const progress = progressTo(io, prefix);
    const code = await command.run({ ...parsed, io, progress, signal: controller.signal });
    return controller.signal.aborted ? EXIT_INTERRUPTED : (code ?? 0);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${prefix}: ${error.message} (see --help)`);
      return EXIT_USAGE;
    }
    if (controller.signal.aborted) {
      io.err(`${prefix}: interrupted`);
      return EXIT_INTERRUPTED;
    }
    io.err(`${prefix}: ${error instanceof GauntletError ? error.message : ((error as Error)?.stack ?? String(error))}`);
    return EXIT_FAILURE;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

function isHelp(arg: string): boolean {
  return arg === '-h' || arg === '--help';
}
