const USAGE = `gauntlet-worker — Gauntlet rollout worker (BullMQ on Redis)

Collects groups of token-exact multi-turn trajectories by driving env-server sessions with a
policy served behind a vLLM-compatible API.

Usage:
  gauntlet-worker --help     this help

The worker's commands (run, enqueue) are not implemented yet; see the project's issues.
`;

export async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  process.stderr.write(`gauntlet-worker: unknown command ${JSON.stringify(argv[0])}. Run gauntlet-worker --help.\n`);
  return 2;
}
