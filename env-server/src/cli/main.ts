import { runTool, type RunToolOptions, type Tool } from '@gauntlet/proto/cli';
import { collectCommand } from './collect.js';
import { serveCommand } from './serve-command.js';
import { solveCommand } from './solve.js';
import { tasksCommand } from './tasks-command.js';

export const TOOL: Tool = {
  name: 'gauntlet-env',
  description:
    'BrowserGym-compatible browser environment server (OpenEnv HTTP + WebSocket, gRPC), and the Gauntlet oracle tools. With no command, or flags first (gauntlet-env --port 8000), it serves.',
  commands: [serveCommand, tasksCommand, solveCommand, collectCommand],
  defaultCommand: 'serve',
};

/** Runs one command line and returns the exit code (never exits itself); the kit takes `help [command]`. */
export function main(argv: string[], options: RunToolOptions = {}): Promise<number> {
  return runTool(TOOL, argv, options);
}

export { ConfigError } from '../config.js';
