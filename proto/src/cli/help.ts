import type { OptionSpec, OptionTable, PositionalSpec } from './option-table.js';
import type { AnyCommand, Tool } from './command.js';
import { envNames, ownsConfig } from './parse.js';

/** `--help` of one command, written from its option table (a runner of its own may pass any command shape). */
export function commandHelp(
  tool: Pick<Tool, 'name'>,
  command: Pick<AnyCommand, 'name' | 'description' | 'options' | 'positionals' | 'examples'>,
): string {
  const positionals = command.positionals ?? [];
  const rows = Object.entries(command.options as OptionTable).map(
    ([name, spec]) => [flagLabel(name, spec), describe(spec)] as const,
  );
  if (!ownsConfig(command.options as OptionTable))
    rows.push([
      '    --config FILE',
      'Read flag values from a YAML or JSON file (flag-name: value; snake_case too); flags given here win',
    ]);
  rows.push(['-h, --help', 'Show this help']);
  const width = Math.max(...[...positionals.map((p) => positionalLabel(p).length), ...rows.map(([f]) => f.length)]);
  return [
    ['Usage:', tool.name, command.name, ...positionals.map(positionalLabel), '[options]'].join(' '),
    '',
    command.description,
    ...(positionals.length
      ? ['', 'Arguments:', ...positionals.map((p) => `  ${positionalLabel(p).padEnd(width)}  ${p.help}`)]
      : []),
    '',
    'Options:',
    ...rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`),
    ...(command.examples?.length ? ['', 'Examples:', ...command.examples.map((e) => `  ${e}`)] : []),
  ].join('\n');
}

/** The tool's own `--help`: its commands, its own flags (when it has any) and the exit codes. */
export function toolHelp(
  tool: Pick<Tool, 'name' | 'description' | 'toolOptions' | 'exitCodes' | 'defaultCommand'> & {
    commands: readonly Pick<AnyCommand, 'name' | 'summary'>[];
  },
): string {
  const width = Math.max(...tool.commands.map((c) => c.name.length));
  const options = tool.toolOptions ?? [];
  const optionWidth = Math.max(0, ...options.map(([flag]) => flag.length));
  return [
    `Usage: ${tool.name} ${tool.defaultCommand ? '[command]' : '<command>'} [options]`,
    '',
    tool.description,
    '',
    'Commands:',
    ...tool.commands.map(
      (c) => `  ${c.name.padEnd(width)}  ${c.summary}${c.name === tool.defaultCommand ? ' (the default command)' : ''}`,
    ),
    ...(options.length
      ? ['', 'Options:', ...options.map(([flag, text]) => `  ${flag.padEnd(optionWidth)}  ${text}`)]
      : []),
    '',
    `Run '${tool.name} <command> --help' for a command's flags.`,
    tool.exitCodes ?? 'Exit codes: 0 success, 1 failure, 2 bad command line, 130 interrupted.',
  ].join('\n');
}

function flagLabel(name: string, spec: OptionSpec): string {
  const short = spec.short ? `-${spec.short}, ` : '    ';
  const value = spec.kind === 'boolean' ? '' : ` ${spec.valueName ?? PLACEHOLDER[spec.kind]}`;
  return `${short}--${name}${value}`;
}

function describe(spec: OptionSpec): string {
  const fallback = spec.defaultText ?? (spec.default === undefined ? undefined : String(spec.default));
  const extras = [
    spec.choices ? `one of ${spec.choices.join(', ')}` : '',
    spec.repeatable && !/\brepeat/i.test(spec.help)
      ? spec.noSplit
        ? 'repeatable'
        : 'repeatable, or comma-separated'
      : '',
    fallback !== undefined && fallback !== '' && spec.default !== false ? `default: ${fallback}` : '',
    envNames(spec).length ? `env ${envNames(spec).join(', ')}` : '',
  ].filter(Boolean);
  return `${spec.help}${extras.length ? ` (${extras.join('; ')})` : ''}`;
}

function positionalLabel(p: PositionalSpec): string {
  const label = `${p.name}${p.variadic ? ' …' : ''}`;
  return p.optional ? `[${label}]` : `<${label}>`;
}

const PLACEHOLDER: Record<OptionSpec['kind'], string> = {
  string: 'VALUE',
  boolean: '',
  integer: 'N',
  number: 'X',
  list: 'A,B',
};
