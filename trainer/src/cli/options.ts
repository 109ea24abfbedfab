import { parseArgs } from 'node:util';
import { UsageError, type Command, type CommandContext } from './command.js';

export type ParsedCommandLine = Pick<CommandContext, 'options' | 'positionals'> & { help: boolean };

/** Parses a subcommand's arguments strictly: unknown flags, missing values and wrong positional counts are usage errors. */
export function parseCommandLine(command: Command, args: string[]): ParsedCommandLine {
  const options = Object.fromEntries(
    Object.entries(command.options).map(([name, spec]) => [
      name,
      { type: spec.type, ...(spec.short ? { short: spec.short } : {}), ...(spec.multiple ? { multiple: true } : {}) },
    ]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(describeParseError(error as Error & { code?: string }));
  }
  const { help, ...values } = parsed.values as Record<string, string | boolean | string[] | undefined>;
  if (help) return { options: values, positionals: parsed.positionals, help: true };
  const required = command.positionals.filter((p) => !p.optional);
  if (parsed.positionals.length < required.length) {
    const missing = required.slice(parsed.positionals.length).map((p) => `<${p.name}>`);
    throw new UsageError(`${command.name}: missing ${missing.join(' ')}`);
  }
  if (parsed.positionals.length > command.positionals.length && !command.positionals.at(-1)?.variadic) {
    const extra = parsed.positionals.slice(command.positionals.length);
    throw new UsageError(
      `${command.name}: unexpected argument${extra.length > 1 ? 's' : ''} ${extra.map((a) => JSON.stringify(a)).join(' ')}`,
    );
  }
  return { options: values, positionals: parsed.positionals, help: false };
}

function describeParseError(error: Error & { code?: string }): string {
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const flag = /'([^']+)'/.exec(error.message)?.[1] ?? 'option';
    return `unknown option ${flag}`;
  }
  return error.message;
}

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
