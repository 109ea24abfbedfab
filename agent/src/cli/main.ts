import { runTool, type RunToolOptions, type Tool } from '@gauntlet/proto/cli';
import { compareCommand } from './compare-command.js';
import { recordCommand } from './record-command.js';
import { runCommand } from './run-command.js';
import { viewCommand } from './view-command.js';

export const TOOL: Tool = {
  name: 'gauntlet-agent',
  description:
    "Runs an agent on Gauntlet tasks — the env's oracle, any OpenAI-compatible chat model, both (hybrid), or a local model and adapter served by the trainer — records a person's demonstration (and replays it), compares runs, and shows their episodes step by step in a local viewer.",
  commands: [runCommand, recordCommand, compareCommand, viewCommand],
};

/** Runs one command line and returns the exit code (never exits itself). */
export function main(argv: string[], options: RunToolOptions = {}): Promise<number> {
  return runTool(TOOL, argv, options);
}
