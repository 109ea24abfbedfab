import type { Command, PositionalSpec } from './command.js';

export const TOOL = 'gauntlet-trainer';

export function toolHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `Usage: ${TOOL} <command> [options]`,
    '',
    'Trains LoRA adapters for Llama-family models (Llama, Qwen2, Qwen3) with ONNX Runtime.',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    "  -h, --help     Show this help, or a command's help after the command name",
    '  -v, --version  Print the version',
    '',
    `Run '${TOOL} <command> --help' for a command's arguments and flags.`,
    'Exit codes: 0 success, 1 failure (bad files, runtime errors), 2 bad command line, 130 interrupted.',
  ].join('\n');
}

export function commandHelp(command: Command): string {
  const positionals = command.positionals.map(positionalLabel).join(' ');
  const flags = Object.entries(command.options).map(([name, spec]) => {
    const short = spec.short ? `-${spec.short}, ` : '    ';
    const value = spec.type === 'string' ? ` ${spec.valueName ?? 'VALUE'}` : '';
    const fallback = spec.defaultText ? ` (default: ${spec.defaultText})` : '';
    const repeat = spec.multiple ? ' (repeatable)' : '';
    return [`${short}--${name}${value}`, `${spec.description}${repeat}${fallback}`] as const;
  });
  flags.push(['-h, --help', 'Show this help']);
  const width = Math.max(
    ...[...command.positionals.map((p) => positionalLabel(p).length), ...flags.map(([f]) => f.length)],
  );
  return [
    ['Usage:', TOOL, command.name, positionals, Object.keys(command.options).length ? '[options]' : '']
      .filter((part) => part !== '')
      .join(' '),
    '',
    command.description,
    ...(command.positionals.length
      ? ['', 'Arguments:', ...command.positionals.map((p) => `  ${positionalLabel(p).padEnd(width)}  ${p.description}`)]
      : []),
    '',
    'Options:',
    ...flags.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`),
    ...(command.examples?.length ? ['', 'Examples:', ...command.examples.map((e) => `  ${e}`)] : []),
  ].join('\n');
}

function positionalLabel(p: PositionalSpec): string {
  const label = `${p.name}${p.variadic ? ' …' : ''}`;
  return p.optional ? `[${label}]` : `<${label}>`;
}
