import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parse as parseYaml } from 'yaml';
import type { OptionSpec, OptionTable, OptionValues, PositionalSpec } from './option-table.js';
import { UsageError } from './usage-error.js';

export interface ParseInput {
  args: string[];
  positionals?: readonly PositionalSpec[];
  env?: NodeJS.ProcessEnv;
}

export interface Parsed<T extends OptionTable> {
  values: OptionValues<T>;
  positionals: string[];
  help: boolean;
  /** The options the command line or its config file set (not the environment, not a default). */
  given: ReadonlySet<string>;
}

/**
 * Strict parsing of one command's arguments. Each value comes from the first that sets it:
 * the flag, the `--config` file (JSON or YAML), the environment variable, the default. Unknown flags,
 * missing values, bad numbers and stray arguments are UsageErrors naming the flag. A table that
 * declares its own `config` row reads its config files itself (e.g. YAML): the kit leaves it be.
 */
export function parseOptions<T extends OptionTable>(table: T, input: ParseInput): Parsed<T> {
  const positionals = input.positionals ?? [];
  const specs = Object.entries(table);
  const ownConfig = ownsConfig(table);
  const nodeOptions = Object.fromEntries([
    ...specs.map(([name, spec]) => [
      name,
      {
        type: spec.kind === 'boolean' ? 'boolean' : 'string',
        ...(spec.short ? { short: spec.short } : {}),
        ...(spec.repeatable ? { multiple: true } : {}),
      },
    ]),
    ['help', { type: 'boolean', short: 'h' }],
    ...(ownConfig ? [] : [['config', { type: 'string' }]]),
  ]) as NonNullable<ParseArgsConfig['options']>;
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: input.args, options: nodeOptions, allowPositionals: true, strict: true });
  } catch (error) {
    throw parseFailure(error as Error & { code?: string });
  }
  const { help, ...flags } = parsed.values as Record<string, string | boolean | string[] | undefined>;
  const config = ownConfig ? undefined : flags.config;
  if (!ownConfig) delete flags.config;
  if (help) return { values: {} as OptionValues<T>, positionals: parsed.positionals, help: true, given: new Set() };
  checkPositionals(parsed.positionals, positionals);
  const fromFile = typeof config === 'string' ? readConfig(config, table) : {};
  const env = input.env ?? process.env;
  const values: Record<string, unknown> = {};
  const givenNames = new Set<string>();
  for (const [name, spec] of specs) {
    const flag = flags[name];
    const given = flag ?? fromFile[name];
    if (given !== undefined) givenNames.add(name);
    const envName = given === undefined ? envNames(spec).find((n) => env[n]) : undefined;
    const raw = given ?? (envName ? env[envName] : undefined);
    const file = flag === undefined && fromFile[name] !== undefined ? (config as string) : undefined;
    // A bad value names where the user fixes it: the flag, the config file, or the variable.
    values[name] = raw === undefined ? defaultOf(spec) : convertFrom(name, spec, raw, file, envName);
  }
  return { values: values as OptionValues<T>, positionals: parsed.positionals, help: false, given: givenNames };
}

/** The table has its own `config` flag, so `--config` is the command's, not the kit's JSON file. */
export function ownsConfig(table: OptionTable): boolean {
  return Object.hasOwn(table, 'config');
}

function parseFailure(error: Error & { code?: string }): UsageError {
  const flag = /'(-[^'\s]+)/.exec(error.message)?.[1];
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return new UsageError(`unknown flag ${flag}`, flag);
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
    return new UsageError(`${flag ?? 'a flag'} needs a value`, flag?.replace(/^-+/, ''));
  // Node's hints name its own API; the first sentence is what the user needs.
  return new UsageError(error.message.split(/\.(?:\s|$)/)[0]!);
}

function checkPositionals(given: string[], specs: readonly PositionalSpec[]): void {
  const required = specs.filter((p) => !p.optional);
  if (given.length < required.length)
    throw new UsageError(
      `missing ${required
        .slice(given.length)
        .map((p) => `<${p.name}>`)
        .join(' ')}`,
    );
  if (given.length > specs.length && !specs.at(-1)?.variadic)
    throw new UsageError(`unexpected argument ${JSON.stringify(given[specs.length])} (flags start with --)`);
}

type ConfigValue = string | boolean | number | string[];

/**
 * A mapping of flag values: JSON for a `.json` file, YAML otherwise (`max-steps: 40`). Keys are
 * the flag names, or the same in snake_case (`max_steps`); a null value leaves the flag unset.
 * Unknown keys and unreadable files are usage errors naming the file.
 */
function readConfig(path: string, table: OptionTable): Record<string, ConfigValue> {
  const format = extname(path).toLowerCase() === '.json' ? 'JSON' : 'YAML';
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(`--config ${path}: cannot read it (${code})`, 'config');
  }
  let data: unknown;
  try {
    data = format === 'JSON' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new UsageError(`--config ${path}: not valid ${format}: ${(error as Error).message}`, 'config');
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data))
    throw new UsageError(`--config ${path}: must hold a mapping of flag names to values`, 'config');
  const values: Record<string, ConfigValue> = {};
  for (const [key, value] of Object.entries(data)) {
    const name = key in table ? key : key.replaceAll('_', '-');
    if (!(name in table)) throw new UsageError(`--config ${path}: unknown flag "${key}"`, 'config');
    if (value !== null && value !== undefined) values[name] = value as ConfigValue;
  }
  return values;
}

/** convert, with a value that came from the config file named in its message. */
function convertFrom(
  name: string,
  spec: OptionSpec,
  raw: ConfigValue,
  file: string | undefined,
  envName: string | undefined,
): unknown {
  try {
    return convert(name, spec, raw, envName);
  } catch (error) {
    if (file === undefined || !(error instanceof UsageError)) throw error;
    throw new UsageError(`--config ${file}: ${error.message}`, name);
  }
}

/** The environment variables a flag reads, first one set wins. */
export function envNames(spec: OptionSpec): readonly string[] {
  return spec.env === undefined ? [] : typeof spec.env === 'string' ? [spec.env] : spec.env;
}

function defaultOf(spec: OptionSpec): unknown {
  if (spec.default === undefined) return spec.kind === 'boolean' ? false : undefined;
  return Array.isArray(spec.default) ? [...spec.default] : spec.default;
}

/**
 * One raw value (a flag's string, a config file's JSON value, an environment variable) as the
 * flag's kind; `source` names where a bad value came from when that is not `--name`.
 */
export function convert(
  name: string,
  spec: OptionSpec,
  raw: string | boolean | number | string[],
  source = `--${name}`,
): unknown {
  const bad = (want: string) => new UsageError(`${source} must be ${want} (got ${JSON.stringify(raw)})`, name);
  switch (spec.kind) {
    case 'boolean': {
      if (typeof raw === 'boolean') return raw;
      // Deployments write switches many ways (`BROWSERGYM_HEADLESS=True`, `=yes`, `=off`).
      const text = String(raw).trim().toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(text)) return true;
      if (['false', '0', 'no', 'off', ''].includes(text)) return false;
      throw bad('true or false');
    }
    case 'integer':
    case 'number': {
      const integer = spec.kind === 'integer';
      // An integer is written in digits: `1.5`, `1e3` and `0x10` are refused, not rounded or read as hex.
      const text = typeof raw === 'string' && (integer ? /^\s*-?\d+\s*$/.test(raw) : raw.trim() !== '');
      const value = typeof raw === 'number' ? raw : text ? Number(raw) : NaN;
      const range = [
        spec.min === undefined ? '' : `≥ ${spec.min}`,
        spec.above === undefined ? '' : `> ${spec.above}`,
        spec.max === undefined ? '' : `≤ ${spec.max}`,
      ].filter(Boolean);
      const want = `${integer ? 'an integer' : 'a number'}${range.length ? ` ${range.join(' and ')}` : ''}`;
      if (!Number.isFinite(value) || (integer && !Number.isSafeInteger(value))) throw bad(want);
      if (
        (spec.min !== undefined && value < spec.min) ||
        (spec.above !== undefined && value <= spec.above) ||
        (spec.max !== undefined && value > spec.max)
      )
        throw bad(want);
      return value;
    }
    case 'list': {
      const values = Array.isArray(raw) ? raw.map(String) : [String(raw)];
      const items = spec.noSplit ? values : values.flatMap((v) => v.split(','));
      return items.map((s) => s.trim()).filter((s) => s !== '');
    }
    case 'string': {
      const text = typeof raw === 'number' ? String(raw) : raw;
      if (typeof text !== 'string') throw bad('a string');
      if (spec.choices && !spec.choices.includes(text)) throw bad(`one of ${spec.choices.join(', ')}`);
      if (spec.accepts && !spec.accepts.test(text)) throw bad(spec.accepts.want);
      return text;
    }
  }
}
