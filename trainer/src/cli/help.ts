import type { Command } from './command.js';

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
