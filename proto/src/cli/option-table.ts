/**
 * A command's flags, declared once: the table parses the command line, applies defaults, the
 * environment and `--config` files, validates each value and writes `--help`. Adding a flag is
 * adding one row.
 */
export type OptionKind = 'string' | 'boolean' | 'integer' | 'number' | 'list';

export interface OptionSpec {
  kind: OptionKind;
  help: string;
  /** Applied when the flag, the config file and the environment are all silent. */
  default?: string | boolean | number | readonly string[];
  /**
   * Read from this environment variable when neither the flag nor the config file sets it; with
   * several names (a setting deployments spell more than one way), the first one set wins.
   */
  env?: string | readonly string[];
  /** Placeholder in help, e.g. `N` for `--seed N`. */
  valueName?: string;
  /** The allowed values of a string flag. */
  choices?: readonly string[];
  /** A string flag's own check of its value (a port or `off`); `want` ends "must be …" when it fails. */
  accepts?: { want: string; test: (value: string) => boolean };
  /** Lowest allowed value of a number or integer flag (inclusive). */
  min?: number;
  /** A number flag's value must be above this (exclusive), e.g. a learning rate above 0. */
  above?: number;
  /** Highest allowed value of a number or integer flag (inclusive). */
  max?: number;
  short?: string;
  /** A `list` flag that may be given more than once (`--adapter a=x --adapter b=y`); values add up. */
  repeatable?: boolean;
  /** A `list` flag whose values are taken whole, not split at commas (names that may hold commas). */
  noSplit?: boolean;
  /** Shown as the default in help when the real default is computed (e.g. `results/<run>`). */
  defaultText?: string;
}

export type OptionTable = Record<string, OptionSpec>;

type ValueOf<K extends OptionKind> = K extends 'boolean'
  ? boolean
  : K extends 'integer' | 'number'
    ? number
    : K extends 'list'
      ? string[]
      : string;

/** The parsed values: a flag with a default (or a boolean) is always present, others may be undefined. */
export type OptionValues<T extends OptionTable> = {
  -readonly [N in keyof T]: T[N] extends { default: unknown }
    ? ValueOf<T[N]['kind']>
    : T[N]['kind'] extends 'boolean'
      ? boolean
      : ValueOf<T[N]['kind']> | undefined;
};

/** Declares a table with its literal types kept, so the command sees typed values. */
export function defineOptions<const T extends OptionTable>(table: T): T {
  return table;
}

export interface PositionalSpec {
  name: string;
  help: string;
  optional?: boolean;
  /** The last positional only: takes every remaining argument. */
  variadic?: boolean;
}
