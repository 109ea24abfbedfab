import { parseOptions } from '@gauntlet/proto/cli';
import { UsageError, type AnyCommand, type CommandContext, type OptionTable } from './command.js';

export type ParsedCommandLine<T extends OptionTable = OptionTable> = Pick<
  CommandContext<T>,
  'options' | 'positionals' | 'given'
> & { help: boolean };

/**
 * The kit parses a command's arguments strictly (unknown flags, missing values, wrong positional
 * counts, values out of a row's range are usage errors); its messages are prefixed with the
 * command, as the trainer's own are (`init-tiny: missing <dir>`).
 */
export function parseCommandLine<T extends OptionTable>(
  command: Pick<AnyCommand, 'name' | 'positionals'> & { options: T },
  args: string[],
  env?: NodeJS.ProcessEnv,
): ParsedCommandLine<T> {
  try {
    const parsed = parseOptions(command.options, { args, positionals: command.positionals, ...(env ? { env } : {}) });
    return { options: parsed.values, positionals: parsed.positionals, given: parsed.given, help: parsed.help };
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`${command.name}: ${error.message}`, error.flag);
    throw error;
  }
}
