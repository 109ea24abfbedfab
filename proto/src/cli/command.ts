import type { OptionTable, OptionValues, PositionalSpec } from './option-table.js';
import type { CommandIo, Progress } from './progress.js';

// What a tool and its commands are; help.ts renders them and tool.ts runs them.
export interface CommandContext<T extends OptionTable> {
  values: OptionValues<T>;
  positionals: string[];
  /** The options the command line or its config file set, for flags that only mean something with another. */
  given: ReadonlySet<string>;
  io: CommandIo;
  progress: Progress;
  /** Aborted on SIGINT / SIGTERM; long commands stop at the next safe point. */
  signal: AbortSignal;
}

export interface Command<T extends OptionTable> {
  name: string;
  /** One line for the tool's command list. */
  summary: string;
  /** A paragraph for the command's `--help`. */
  description: string;
  options: T;
  positionals?: readonly PositionalSpec[];
  examples?: string[];
  /**
   * The command answers SIGINT / SIGTERM itself (a server's graceful shutdown, exit 0): the kit
   * neither listens for them nor turns its exit code into 130.
   */
  ownsSignals?: boolean;
  /**
   * After an interrupt the command finishes the work in hand and its own exit code stands (a
   * worker's graceful drain exits 0); otherwise an interrupted command exits 130.
   */
  drains?: boolean;
  /** Returns the exit code (0 when omitted). */
  run(context: CommandContext<T>): Promise<number | void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of commands with different tables
export type AnyCommand = Command<any>;

export function defineCommand<const T extends OptionTable>(command: Command<T>): Command<T> {
  return command;
}

export interface Tool {
  name: string;
  description: string;
  commands: readonly AnyCommand[];
  /**
   * The command run when none is named: no arguments at all, or arguments that start with a flag
   * (`gauntlet-env --port 8000` serves). Without one, a bare tool prints its help and exits 2.
   */
  defaultCommand?: string;
  /** Flags of the tool itself (before any command), as `[flag, help]` rows of its `--help`. */
  toolOptions?: readonly (readonly [string, string])[];
  /** The exit-code line of the tool's `--help`, when the tool says more than the kit's. */
  exitCodes?: string;
  /** Printed for `-v` / `--version`, when the tool has one. */
  version?: string;
  /**
   * A GauntletError with code VALIDATION_ERROR from a command is a bad command line too (exit 2,
   * like a UsageError): the worker's policy and queue checks run after the flags are parsed.
   */
  validationIsUsage?: boolean;
  /** Extends every command's context before it runs, and may turn an interrupt into "stop now". */
  prepare?(context: CommandContext<OptionTable>): ToolExtension;
}

export interface ToolExtension {
  /** Merged into the command's context (the worker's Redis watches). */
  context?: object;
  /**
   * Asked at the first interrupt: a line (without the tool prefix) means the command cannot stop
   * gracefully, so the run ends now with exit 130 and the command is left behind.
   */
  stopNow?(): string | undefined;
}
