import { toolHelp as kitToolHelp } from '@gauntlet/proto/cli';
import type { AnyCommand } from './command.js';

export const TOOL = 'gauntlet-trainer';

export function toolHelp(commands: readonly AnyCommand[]): string {
  return kitToolHelp({
    name: TOOL,
    description: 'Trains LoRA adapters for Llama-family models (Llama, Qwen2, Qwen3) with ONNX Runtime.',
    commands,
    toolOptions: [
      ['-h, --help', "Show this help, or a command's help after the command name"],
      ['-v, --version', 'Print the version'],
    ],
    exitCodes: 'Exit codes: 0 success, 1 failure (bad files, runtime errors), 2 bad command line, 130 interrupted.',
  });
}
