import { readFileSync } from 'node:fs';
import { GauntletError } from '@gauntlet/proto';
import { runTool, type AnyCommand as KitCommand, type CommandIo, type Tool } from '@gauntlet/proto/cli';
import { COMMANDS } from './commands/index.js';
import type { AnyCommand } from './command.js';

/**
 * `gauntlet-trainer`, run by the CLI kit like every Gauntlet bin: one error line
 * `gauntlet-trainer <command>: <message>` (a bad command line adds `(see --help)` and exits 2),
 * Ctrl-C or SIGTERM aborts the command (grpo saves a checkpoint, exit 130), a second one stops now.
 */
export const TRAINER: Tool = {
  name: 'gauntlet-trainer',
  description: 'Trains LoRA adapters for Llama-family models (Llama, Qwen2, Qwen3) with ONNX Runtime.',
  commands: COMMANDS.map(kitCommand),
  toolOptions: [
    ['-h, --help', "Show this help, or a command's help after the command name"],
    ['-v, --version', 'Print the version'],
  ],
  exitCodes: 'Exit codes: 0 success, 1 failure (bad files, runtime errors), 2 bad command line, 130 interrupted.',
  version: readVersion(),
};

/** Runs one command line and returns the exit code; never calls process.exit, so tests can run it in-process. */
export function main(argv: string[], io?: CommandIo, signal?: AbortSignal): Promise<number> {
  return runTool(TRAINER, argv, { ...(io ? { io } : {}), ...(signal ? { signal } : {}) });
}

/**
 * The trainer's commands see their values as `options`. Their messages name the command
 * (`init-tiny: missing <dir>`, read on their own in the settings tests); the kit's line names it
 * already, so that one prefix is dropped.
 */
function kitCommand(command: AnyCommand): KitCommand {
  const { run, ...rest } = command;
  return {
    ...rest,
    async run({ values, positionals, given, io, signal }) {
      try {
        return await run({ options: values, positionals, given, io, signal });
      } catch (error) {
        const own = `${command.name}: `;
        if (error instanceof GauntletError && error.message.startsWith(own))
          error.message = error.message.slice(own.length);
        throw error;
      }
    },
  };
}

function readVersion(): string {
  // src/cli and dist/cli both sit two levels below the package root.
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
