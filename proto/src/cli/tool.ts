import { GauntletError } from '../errors.js';
import { closestName } from './closest.js';
import type { Command, CommandContext, Tool, ToolExtension } from './command.js';
import { commandHelp, toolHelp } from './help.js';
import { processInterrupts, signalInterrupts, type Interrupts } from './interrupts.js';
import type { OptionTable } from './option-table.js';
import { parseOptions } from './parse.js';
import { consoleIo, progressTo, type CommandIo } from './progress.js';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_USAGE, UsageError } from './usage-error.js';

export interface RunToolOptions {
  io?: CommandIo;
  env?: NodeJS.ProcessEnv;
  /** Its abort is one interrupt. Default: SIGINT / SIGTERM of this process. */
  signal?: AbortSignal;
  /** Where interrupts come from, each call one (tests send a second). Default: as `signal`. */
  interrupts?: Interrupts;
}

/**
 * Runs one command line of `tool` and returns the exit code (never exits itself). Usage errors
 * print one line naming the flag (exit 2); expected errors print their message (exit 1); only
 * bugs print a stack. The first interrupt aborts the command's signal (it stops at its next safe
 * point, exit 130); a second one ends the run at once.
 */
export async function runTool(tool: Tool, argv: string[], options: RunToolOptions = {}): Promise<number> {
  const io = options.io ?? consoleIo;
  const defaulted =
    tool.defaultCommand !== undefined &&
    (argv[0] === undefined || (argv[0].startsWith('-') && !isToolFlag(tool, argv[0])));
  let [name, ...rest] = defaulted ? [tool.defaultCommand!, ...argv] : argv;
  // `help <command>` is `<command> --help`, and `help` alone is `--help`, unless a command is named help.
  const helpCommand = name === 'help' && !tool.commands.some((c) => c.name === 'help');
  if (helpCommand && rest[0] !== undefined) [name, rest] = [rest[0], ['--help']];
  else if (helpCommand) name = '--help';
  if (name === undefined || isHelp(name)) {
    (name === undefined ? io.err : io.out)(toolHelp(tool));
    return name === undefined ? EXIT_USAGE : 0;
  }
  if (tool.version !== undefined && isVersion(name)) {
    io.out(tool.version);
    return 0;
  }
  const command = tool.commands.find((c) => c.name === name);
  if (!command) {
    io.err(unknownCommand(tool, name));
    return EXIT_USAGE;
  }
  const prefix = `${tool.name} ${command.name}`;
  const controller = new AbortController();
  let extension: ToolExtension = {};
  let stopNow!: (line: string) => void;
  const stoppedNow = new Promise<string>((resolve) => (stopNow = resolve));
  const interrupt = () => {
    const again = controller.signal.aborted;
    controller.abort(new Error('interrupted'));
    const line = again ? 'interrupted again; stopping now' : extension.stopNow?.();
    if (line) stopNow(line);
  };
  const interrupts =
    options.interrupts ??
    (options.signal ? signalInterrupts(options.signal) : command.ownsSignals ? undefined : processInterrupts);
  const unsubscribe = interrupts?.(interrupt);
  try {
    const parsed = parseOptions(command.options, { args: rest, positionals: command.positionals, env: options.env });
    if (parsed.help) {
      io.out(commandHelp(tool, command));
      return 0;
    }
    const base: CommandContext<OptionTable> = {
      ...parsed,
      io,
      progress: progressTo(io, prefix),
      signal: controller.signal,
    };
    extension = tool.prepare?.(base) ?? {};
    const run = (command as Command<OptionTable>).run({ ...base, ...extension.context });
    const outcome = await Promise.race([run.then((code) => ({ code })), stoppedNow.then((line) => ({ line }))]);
    if ('line' in outcome) {
      io.err(`${prefix}: ${outcome.line}`);
      return EXIT_INTERRUPTED;
    }
    return controller.signal.aborted && !command.drains ? EXIT_INTERRUPTED : (outcome.code ?? 0);
  } catch (error) {
    if (error instanceof UsageError || (tool.validationIsUsage && isValidation(error))) {
      io.err(`${prefix}: ${(error as Error).message} (see --help)`);
      return EXIT_USAGE;
    }
    if (controller.signal.aborted) {
      io.err(`${prefix}: interrupted`);
      return EXIT_INTERRUPTED;
    }
    // A bug: the stack, marked as such (operators grep logs for it).
    io.err(
      `${prefix}: ${error instanceof GauntletError ? error.message : `unexpected error: ${(error as Error)?.stack ?? String(error)}`}`,
    );
    return EXIT_FAILURE;
  } finally {
    unsubscribe?.();
  }
}

function unknownCommand(tool: Tool, name: string): string {
  if (name.startsWith('-')) return `${tool.name}: unknown flag ${name} (flags go after the command name; see --help)`;
  const names = tool.commands.map((c) => c.name);
  const guess = closestName(name, names);
  return `${tool.name}: unknown command ${JSON.stringify(name)}${guess ? ` (did you mean ${guess}?)` : ''}; commands: ${names.join(', ')}`;
}

function isValidation(error: unknown): boolean {
  return error instanceof GauntletError && error.code === 'VALIDATION_ERROR';
}

function isHelp(arg: string): boolean {
  return arg === '-h' || arg === '--help';
}

function isVersion(arg: string): boolean {
  return arg === '-v' || arg === '--version';
}

function isToolFlag(tool: Tool, arg: string): boolean {
  return isHelp(arg) || (tool.version !== undefined && isVersion(arg));
}
