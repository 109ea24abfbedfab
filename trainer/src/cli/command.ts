import type { CommandIo, OptionSpec, OptionTable, OptionValues, PositionalSpec } from '@gauntlet/proto/cli';

/**
 * One subcommand of `gauntlet-trainer`: its flags are one table of the shared CLI kit
 * (`@gauntlet/proto/cli`), which parses the command line, applies each row's default, env var,
 * range and choices, reads `--config` files and writes `--help`, so every flag is explained and
 * checked where it is declared. The command sees the values typed by its table.
 */
export interface Command<T extends OptionTable = OptionTable> {
  name: string;
  /** One line for the tool's command list. */
  summary: string;
  /** A paragraph for the command's own `--help`. */
  description: string;
  positionals: PositionalSpec[];
  options: T;
  examples?: string[];
  /** Returns the exit code (0 when omitted). */
  run(context: CommandContext<T>): Promise<number | void>;
}

export interface CommandContext<T extends OptionTable = OptionTable> {
  /** The kit's parsed values, typed by the table: a flag with a default (or a boolean) is always set. */
  options: OptionValues<T>;
  positionals: string[];
  /** The options the command line or its config file set (absent where a test builds the context). */
  given?: ReadonlySet<string>;
  io: CommandIo;
  /** Aborted on Ctrl-C; long commands (sft, serve) stop at the next safe point. */
  signal: AbortSignal;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of commands with different tables
export type AnyCommand = Command<any>;

/** Declares a command with its table's literal types kept, so `run` sees typed values. */
export function defineCommand<const T extends OptionTable>(command: Command<T>): Command<T> {
  return command;
}

export type { CommandIo, OptionSpec, OptionTable, OptionValues, PositionalSpec };
export { defineOptions } from '@gauntlet/proto/cli';

// One UsageError for every Gauntlet bin, so exit code 2 and the one-line message mean the same everywhere.
export { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError } from '@gauntlet/proto/cli';
