import { parseArgs } from 'node:util';
import { ConfigError, SETTINGS, resolveConfig, type ServerConfig } from '../config.js';
import { startServer } from '../server/app.js';
import { installLastResortHandlers } from '../server/last-resort.js';
import { isGauntletCommand, runGauntletCommand } from './gauntlet-commands.js';
import { assertTokenIfRequired } from './token-guard.js';

const USAGE = `gauntlet-env — BrowserGym-compatible browser environment server (OpenEnv HTTP + WebSocket, gRPC)

Usage:
  gauntlet-env serve [flags]     start the server (default command)
  gauntlet-env tasks [flags]     list the tasks serve would offer (the MiniWoB++ flags count)
  gauntlet-env solve [flags]     play Gauntlet tasks with the expert solver, report success (solve --help)
  gauntlet-env collect [flags]   write expert SFT trajectories and DPO pairs as JSONL (collect --help)
  gauntlet-env --help            this help

Flags for serve (each also read from the environment variable shown):
${SETTINGS.map((s) => `  --${(s.flag + (s.kind === 'bool' ? '' : ' <v>')).padEnd(26)} ${s.help}${s.env.length ? ` [${s.env.join(', ')}]` : ''}`).join('\n')}

Security:
  serve listens on 127.0.0.1 unless --host / HOST says otherwise (the Docker images set
  HOST=0.0.0.0). --token / GAUNTLET_TOKEN requires "Authorization: Bearer <token>" on every route
  but /health; with GAUNTLET_REQUIRE_TOKEN=1, serve refuses to start without a token.

Examples:
  npx gauntlet-env serve --port 8000
  curl -X POST localhost:8000/reset -H 'content-type: application/json' -d '{"task_name":"click-test","seed":1}'
`;

export async function main(argv: string[]): Promise<number> {
  const [command = 'serve', ...rest] = argv[0]?.startsWith('-') ? ['serve', ...argv] : argv;
  if (isGauntletCommand(command)) return runGauntletCommand(command, rest);
  if (argv.includes('--help') || argv.includes('-h') || command === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  switch (command) {
    case 'serve':
      return serve(rest);
    case 'tasks':
      return listTasks(rest);
    default:
      process.stderr.write(`Unknown command ${JSON.stringify(command)}. Run gauntlet-env --help.\n`);
      return 2;
  }
}

/** The serve flags and environment as a config, or a usage error (exit 2) already reported. */
function configFrom(args: string[]): ServerConfig | undefined {
  try {
    const options = Object.fromEntries(
      SETTINGS.map((s) => [s.flag, { type: s.kind === 'bool' ? ('boolean' as const) : ('string' as const) }]),
    );
    const { values } = parseArgs({ args, options, allowPositionals: false, strict: true });
    return resolveConfig(values as Record<string, string | boolean | undefined>);
  } catch (error) {
    usageError(error as Error);
    return undefined;
  }
}

function usageError(error: Error): void {
  process.stderr.write(`${error.message}\nRun gauntlet-env --help for the flags.\n`);
}

async function listTasks(args: string[]): Promise<number> {
  const config = configFrom(args);
  if (!config) return 2;
  const { TaskRegistry } = await import('../tasks/registry.js');
  const { taskFamilies } = await import('../tasks/families.js');
  let registry;
  try {
    registry = new TaskRegistry(taskFamilies(config));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    usageError(error);
    return 2;
  }
  for (const task of registry.list()) {
    const flags = task.flags?.length ? ` [${task.flags.join(', ')}]` : '';
    process.stdout.write(`${task.benchmark}.${task.name}${flags}\t${task.description}\n`);
  }
  return 0;
}

async function serve(args: string[]): Promise<number> {
  const config = configFrom(args);
  if (!config) return 2;
  try {
    assertTokenIfRequired(config);
  } catch (error) {
    usageError(error as Error);
    return 2;
  }
  installLastResortHandlers();
  let server;
  try {
    server = await startServer(config);
  } catch (error) {
    // Settings only the tasks can check: real MiniWoB++'s folder, BROWSERGYM_BENCHMARK, the default task.
    if (!(error instanceof ConfigError)) throw error;
    usageError(error);
    return 2;
  }
  // One listener per signal for the whole run, installed before the port is announced (whoever
  // reads the line may stop us at once): the first signal starts a graceful shutdown; a second one,
  // or a shutdown past its grace (a wedged page that never lets its context close), exits at once.
  // Playwright kills the browser as the process exits.
  let stopping = false;
  const stopped = new Promise<void>((resolve) => {
    const onSignal = () => {
      if (stopping) exitNow('second signal');
      stopping = true;
      resolve();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  process.stdout.write(
    `[gauntlet-env] listening on ${server.url} (ws: ${server.url.replace('http', 'ws')}/ws, gRPC: ${server.grpcUrl}, max ${config.maxSessions} sessions)\n`,
  );
  await stopped;
  const grace = setTimeout(() => exitNow(`shutdown took longer than ${SHUTDOWN_GRACE_MS} ms`), SHUTDOWN_GRACE_MS);
  grace.unref();
  process.stdout.write('[gauntlet-env] shutting down\n');
  await server.close();
  clearTimeout(grace);
  return 0;
}

function exitNow(why: string): never {
  process.stderr.write(`[gauntlet-env] ${why}; exiting without waiting\n`);
  process.exit(1);
}

const SHUTDOWN_GRACE_MS = 10_000;

export { ConfigError };
