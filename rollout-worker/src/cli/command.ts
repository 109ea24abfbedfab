import { parseArgs } from 'node:util';
import { UsageError } from '@gauntlet/proto/cli';
import type { RedisWatch } from '@gauntlet/proto/rollout/queue';

export const TOOL = 'gauntlet-worker';

/** One flag: the table parses the command line and writes `--help`, so each is explained where declared. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  valueName?: string;
  description: string;
  defaultText?: string;
  /** Repeatable; each value may also be a comma-separated list. */
  multiple?: boolean;
  /** Read from this environment variable when the flag is absent. */
  env?: string;
}

export type Values = Record<string, string | boolean | string[] | undefined>;

export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
}

export interface CommandContext {
  values: Values;
  io: CommandIo;
  /** Aborted on SIGINT / SIGTERM. */
  signal: AbortSignal;
  /**
   * The Redis watches of the command's queues (openConnection adds them): a signal while one is
   * down stops the command at once, since nothing can be drained or handed back without Redis.
   */
  watches: Set<RedisWatch>;
}

export interface Command {
  name: string;
  summary: string;
  description: string;
  options: Record<string, OptionSpec>;
  examples: string[];
  /** Returns the exit code. */
  run(context: CommandContext): Promise<number>;
}

/** The command line is wrong (exit code 2): the kit's one UsageError. */
export { UsageError };

/** Strict parsing: unknown flags, missing values and stray arguments are usage errors. Environment fallbacks applied. */
export function parseCommandLine(
  command: Command,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): { values: Values; help: boolean } {
  const options = Object.fromEntries(
    Object.entries(command.options).map(([name, spec]) => [
      name,
      { type: spec.type, ...(spec.multiple ? { multiple: true } : {}) },
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
    // Node's own hints name its API (e.g. '--env=-XYZ'); the first sentence is what the user needs.
    const message = (error as Error).message.split(/\.(?:\s|$)/)[0]!;
    throw new UsageError(message);
  }
  if (parsed.positionals.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[0])} (every input is a --flag)`);
  const { help, ...values } = parsed.values as Values;
  for (const [name, spec] of Object.entries(command.options)) {
    if (values[name] === undefined && spec.env && env[spec.env])
      values[name] = spec.multiple ? [env[spec.env]!] : env[spec.env];
  }
  return { values, help: help === true };
}

export function commandHelp(command: Command): string {
  const rows = Object.entries(command.options).map(([name, spec]) => {
    const flag = `--${name}${spec.type === 'string' ? ` ${spec.valueName ?? 'VALUE'}` : ''}`;
    const extras = [
      spec.multiple && !spec.description.includes('repeat') ? 'repeatable, or comma-separated' : '',
      spec.defaultText ? `default: ${spec.defaultText}` : '',
      spec.env ? `env ${spec.env}` : '',
    ].filter(Boolean);
    return [flag, `${spec.description}${extras.length ? ` (${extras.join('; ')})` : ''}`] as const;
  });
  rows.push(['-h, --help', 'Show this help']);
  const width = Math.max(...rows.map(([flag]) => flag.length));
  return [
    `Usage: ${TOOL} ${command.name} [options]`,
    '',
    command.description,
    '',
    'Options:',
    ...rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`),
    ...(command.examples.length ? ['', 'Examples:', ...command.examples.map((e) => `  ${e}`)] : []),
  ].join('\n');
}

export function toolHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `Usage: ${TOOL} <command> [options]`,
    '',
    'The Gauntlet rollout tier: workers play GRPO groups of multi-turn, token-exact episodes',
    '(env server ⇄ policy server) from BullMQ queues on Redis and hand completed groups to the trainer.',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    `Run '${TOOL} <command> --help' for a command's flags.`,
    'Exit codes: 0 success, 1 failure, 2 bad command line, 130 interrupted.',
  ].join('\n');
}
