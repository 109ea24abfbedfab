import { UsageError } from '@gauntlet/proto/cli';

/** The Gauntlet data commands, loaded only when used (they pull in the whole env). */
const COMMANDS = {
  solve: async () => {
    const { SOLVE_HELP, solveCommand } = await import('./solve.js');
    return { help: SOLVE_HELP, run: solveCommand };
  },
  collect: async () => {
    const { COLLECT_HELP, collectCommand } = await import('./collect.js');
    return { help: COLLECT_HELP, run: collectCommand };
  },
};

export type GauntletCommand = keyof typeof COMMANDS;

export function isGauntletCommand(name: string): name is GauntletCommand {
  return Object.hasOwn(COMMANDS, name);
}

/** Runs `solve` or `collect`: its own --help, usage errors as exit code 2 with a hint. */
export async function runGauntletCommand(name: GauntletCommand, args: string[]): Promise<number> {
  const { help, run } = await COMMANDS[name]();
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(help);
    return 0;
  }
  try {
    return await run(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\nRun gauntlet-env ${name} --help for the flags.\n`);
    return 2;
  }
}
