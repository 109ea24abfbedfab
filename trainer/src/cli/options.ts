import { convertOption, parseOptions, type OptionSpec } from '@gauntlet/proto/cli';
import { UsageError, type Command, type CommandContext } from './command.js';

export type ParsedCommandLine = Pick<CommandContext, 'options' | 'positionals'> & { help: boolean };

/**
 * The kit parses a command's arguments strictly (unknown flags, missing values, wrong positional
 * counts are usage errors); its messages are prefixed with the command, as the trainer's own are
 * (`init-tiny: missing <dir>`).
 */
export function parseCommandLine(command: Command, args: string[]): ParsedCommandLine {
  try {
    const parsed = parseOptions(command.options, { args, positionals: command.positionals });
    return { options: parsed.values, positionals: parsed.positionals, help: parsed.help };
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`${command.name}: ${error.message}`, error.flag);
    throw error;
  }
}

// Readers of the string values that commands convert themselves (ranges, choices, lists).

/** An integer flag value within bounds, else a usage error naming the flag (the kit's check). */
export function integerOption(
  context: Pick<CommandContext, 'options'>,
  name: string,
  fallback: number,
  min = 0,
): number {
  return read(context, name, fallback, { kind: 'integer', min });
}

export function optionalIntegerOption(
  context: Pick<CommandContext, 'options'>,
  name: string,
  min = 1,
): number | undefined {
  return context.options[name] === undefined ? undefined : integerOption(context, name, 0, min);
}

/** A string flag restricted to a set of choices. */
export function choiceOption<T extends string>(
  context: Pick<CommandContext, 'options'>,
  name: string,
  choices: readonly T[],
  fallback: T,
): T {
  return read(context, name, fallback, { kind: 'string', choices });
}

export function stringOption(context: Pick<CommandContext, 'options'>, name: string): string | undefined {
  const raw = context.options[name];
  return typeof raw === 'string' ? raw : undefined;
}

/** A finite number flag (`1e-4` style welcome) above `min` (or at least it when `inclusive`). */
export function numberOption(
  context: Pick<CommandContext, 'options'>,
  name: string,
  fallback: number,
  min = 0,
  inclusive = false,
): number {
  return read(context, name, fallback, { kind: 'number', ...(inclusive ? { min } : { above: min }) });
}

/** The flag's value checked and converted by the kit as `spec` says, or `fallback` when absent. */
function read<T>(
  context: Pick<CommandContext, 'options'>,
  name: string,
  fallback: T,
  spec: Omit<OptionSpec, 'help'>,
): T {
  const raw = context.options[name];
  return raw === undefined ? fallback : (convertOption(name, { ...spec, help: '' }, raw) as T);
}

/**
 * Every value of a repeatable flag, each also split at commas: `--adapter a=x --adapter b=y` and
 * `--adapter a=x,b=y` say the same. Empty items are dropped.
 */
export function repeatedOption(context: Pick<CommandContext, 'options'>, name: string): string[] {
  const raw = context.options[name];
  const values = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : [];
  return values
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Every value of a repeatable flag as given, not split (keys and folder names may hold commas). */
export function multipleOption(context: Pick<CommandContext, 'options'>, name: string): string[] {
  const raw = context.options[name];
  return (typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : []).filter((s) => s !== '');
}

/** A comma-separated list flag (`--targets q_proj,v_proj`); empty items are dropped. */
export function listOption(context: Pick<CommandContext, 'options'>, name: string): string[] | undefined {
  const raw = stringOption(context, name);
  return raw === undefined
    ? undefined
    : raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
}
