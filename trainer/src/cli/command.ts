/**
 * One subcommand of `gauntlet-trainer`. The option table is the single source for parsing
 * (node:util parseArgs) and for `--help`, so every flag is explained where it is declared.
 */
export interface Command {
  name: string;
  /** One line for the tool's command list. */
  summary: string;
  /** A paragraph for the command's own `--help`. */
  description: string;
  positionals: PositionalSpec[];
  options: Record<string, OptionSpec>;
  examples?: string[];
  /** Returns the exit code (0 when omitted). */
  run(context: CommandContext): Promise<number | void>;
}

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** Placeholder shown in help, e.g. `N` for `--seed N`. */
  valueName?: string;
  description: string;
  /** Shown in help as the default; commands apply defaults themselves. */
  defaultText?: string;
  /** May be given more than once (`--adapter a=x --adapter b=y`); read it with repeatedOption. */
  multiple?: boolean;
}

export interface PositionalSpec {
  name: string;
  description: string;
  optional?: boolean;
  /** The last positional only: takes every remaining argument. */
  variadic?: boolean;
}

export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
}

export interface CommandContext {
  options: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  io: CommandIo;
  /** Aborted on Ctrl-C; long commands (sft, serve) stop at the next safe point. */
  signal: AbortSignal;
}

// One UsageError for every Gauntlet bin, so exit code 2 and the one-line message mean the same everywhere.
export { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError } from '@gauntlet/proto/cli';
