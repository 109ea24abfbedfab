import type { CommandIo, OptionSpec, OptionTable, PositionalSpec } from '@gauntlet/proto/cli';

/**
 * One subcommand of `gauntlet-trainer`: its flags are one table of the shared CLI kit
 * (`@gauntlet/proto/cli`), which parses the command line and writes `--help`, so every flag is
 * explained where it is declared. The kit also applies a row's default, env var and range.
 */
export interface Command {
  name: string;
  /** One line for the tool's command list. */
  summary: string;
  /** A paragraph for the command's own `--help`. */
  description: string;
  positionals: PositionalSpec[];
  options: OptionTable;
  examples?: string[];
  /** Returns the exit code (0 when omitted). */
  run(context: CommandContext): Promise<number | void>;
}

export interface CommandContext {
  /** The kit's parsed values: a string flag as given, a boolean true or false, a list flag its values. */
  options: Record<string, string | boolean | number | string[] | undefined>;
  positionals: string[];
  io: CommandIo;
  /** Aborted on Ctrl-C; long commands (sft, serve) stop at the next safe point. */
  signal: AbortSignal;
}

export type { CommandIo, OptionSpec, PositionalSpec };

// One UsageError for every Gauntlet bin, so exit code 2 and the one-line message mean the same everywhere.
export { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError } from '@gauntlet/proto/cli';
