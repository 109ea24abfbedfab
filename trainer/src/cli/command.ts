import { GauntletError } from '@gauntlet/proto';

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

/** The command line itself is wrong (exit code 2); the message says how to fix it. */
export class UsageError extends GauntletError {
  static override readonly httpStatus = 400;
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super('VALIDATION_ERROR', message);
  }
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;
