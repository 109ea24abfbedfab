import { parseOptions } from '@gauntlet/proto/cli';
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

/** An integer flag value within bounds, else a usage error naming the flag. */
export function integerOption(
  context: Pick<CommandContext, 'options'>,
  name: string,
  fallback: number,
  min = 0,
): number {
  const raw = context.options[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min) {
    throw new UsageError(`--${name} must be an integer ≥ ${min} (got ${JSON.stringify(raw)})`);
  }
  return value;
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
  const raw = context.options[name];
  if (raw === undefined) return fallback;
  if (!choices.includes(raw as T))
    throw new UsageError(`--${name} must be one of ${choices.join(', ')} (got ${JSON.stringify(raw)})`);
  return raw as T;
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
  const raw = context.options[name];
  if (raw === undefined) return fallback;
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(value) || value < min || (!inclusive && value === min)) {
    throw new UsageError(`--${name} must be a number ${inclusive ? '≥' : '>'} ${min} (got ${JSON.stringify(raw)})`);
  }
  return value;
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
