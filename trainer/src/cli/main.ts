import { readFileSync } from 'node:fs';
import { GauntletError } from '@gauntlet/proto';
import { COMMANDS } from './commands/index.js';
import {
  EXIT_FAILURE,
  EXIT_INTERRUPTED,
  EXIT_OK,
  EXIT_USAGE,
  UsageError,
  type AnyCommand,
  type CommandIo,
} from './command.js';
import { closestName, commandHelp, consoleIo } from '@gauntlet/proto/cli';
import { parseCommandLine } from './options.js';
import { TOOL, toolHelp } from './help.js';

/**
 * Runs one command line and returns the exit code; never calls process.exit, so tests can run it
 * in-process. Errors are printed as one line (the message names the file and field); only
 * unexpected errors (bugs) print a stack.
 */
export async function main(
  argv: string[],
  io: CommandIo = consoleIo,
  signal: AbortSignal = new AbortController().signal,
  commands: readonly AnyCommand[] = COMMANDS,
): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.err(toolHelp(commands));
    return EXIT_USAGE;
  }
  if (first === '-h' || first === '--help') return print(io, toolHelp(commands));
  if (first === '-v' || first === '--version') return print(io, readVersion());
  if (first === 'help') return helpFor(rest[0], io, commands);
  const command = commands.find((c) => c.name === first);
  try {
    if (!command) throw unknownCommand(first, commands);
    const parsed = parseCommandLine(command, rest);
    if (parsed.help) return print(io, commandHelp(TRAINER, command));
    const code = (await command.run({ ...parsed, io, signal })) ?? EXIT_OK;
    return signal.aborted ? EXIT_INTERRUPTED : code;
  } catch (error) {
    // Ctrl-C surfaces as an AbortError from wherever the command was waiting: not a failure to report.
    if (signal.aborted) {
      io.err(`${TOOL}: interrupted`);
      return EXIT_INTERRUPTED;
    }
    return reportError(error, io, command);
  }
}

function helpFor(name: string | undefined, io: CommandIo, commands: readonly AnyCommand[]): number {
  if (name === undefined) return print(io, toolHelp(commands));
  const command = commands.find((c) => c.name === name);
  if (!command) return reportError(unknownCommand(name, commands), io, undefined);
  return print(io, commandHelp(TRAINER, command));
}

const TRAINER = { name: TOOL };

function unknownCommand(name: string, commands: readonly AnyCommand[]): UsageError {
  if (name.startsWith('-'))
    return new UsageError(`unknown option ${name} (options go after the command name)`, name.replace(/^-+/, ''));
  const suggestion = closestName(
    name,
    commands.map((c) => c.name),
  );
  return new UsageError(`unknown command ${JSON.stringify(name)}${suggestion ? ` (did you mean ${suggestion}?)` : ''}`);
}

function reportError(error: unknown, io: CommandIo, command: AnyCommand | undefined): number {
  if (error instanceof UsageError) {
    io.err(`${TOOL}: ${error.message}`);
    io.err(`Run '${TOOL} ${command ? `${command.name} ` : ''}--help' for usage.`);
    return EXIT_USAGE;
  }
  if (error instanceof GauntletError) {
    io.err(`${TOOL}: ${error.message}`);
    return EXIT_FAILURE;
  }
  io.err(`${TOOL}: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return EXIT_FAILURE;
}

function print(io: CommandIo, text: string): number {
  io.out(text);
  return EXIT_OK;
}

function readVersion(): string {
  // src/cli and dist/cli both sit two levels below the package root.
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/**
 * The bin's entry: console output; Ctrl-C or SIGTERM (a container stop) aborts the running
 * command, which stops at its next safe point (grpo saves a checkpoint); a second signal kills.
 */
export async function runCli(argv: string[]): Promise<number> {
  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(EXIT_INTERRUPTED);
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);
  // `gauntlet-trainer inspect big-model | head` closes stdout early: stop quietly, not with a stack.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT_OK);
    throw error;
  });
  try {
    return await main(argv, consoleIo, controller.signal);
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
  }
}
