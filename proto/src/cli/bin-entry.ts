import type { Tool } from './command.js';
import { runTool } from './tool.js';
import { EXIT_OK } from './usage-error.js';

/**
 * The whole of a bin's entry: runs the command line with console output and this process's
 * signals, then exits with its code, leaving behind a command that was told to stop now (a
 * second Ctrl-C). `tool ... | head` closing stdout early ends quietly with 0, not with a stack.
 */
export async function runBin(tool: Tool, argv: string[] = process.argv.slice(2)): Promise<never> {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT_OK);
    throw error;
  });
  let code: number;
  try {
    code = await runTool(tool, argv);
  } catch (error) {
    process.stderr.write(`${tool.name}: ${(error as Error)?.stack ?? String(error)}\n`);
    code = 1;
  }
  process.exit(code);
}
