import { defineCommand, UsageError, type CommandIo } from '@gauntlet/proto/cli';
import { ConfigError, SETTING_OPTIONS, resolveConfig, type ServerConfig } from '../config.js';
import { startServer } from '../server/app.js';
import { installLastResortHandlers } from '../server/last-resort.js';
import { assertTokenIfRequired } from './token-guard.js';

/** The server's config from the kit's values (flag, --config file, environment, default). */
export function configFrom(
  values: Record<string, string | boolean | number | string[] | undefined>,
): Promise<ServerConfig> {
  // The kit has read the environment already: its values are all resolveConfig needs.
  return configAsUsage(() => resolveConfig(values, {}));
}

/** A setting the server cannot work with is the command line's fault: exit 2, one line. */
export async function configAsUsage<T>(run: () => T): Promise<Awaited<T>> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

export const serveCommand = defineCommand({
  name: 'serve',
  summary: 'Start the env server (OpenEnv HTTP + WebSocket, gRPC)',
  description: `Starts the BrowserGym-compatible browser environment server. Every flag can also be set by the environment variable shown (the Docker images, compose, k8s and the Space set them).

Security:
  serve listens on 127.0.0.1 unless --host / HOST says otherwise (the Docker images set
  HOST=0.0.0.0). --token / GAUNTLET_TOKEN requires "Authorization: Bearer <token>" on every route
  but /health; with GAUNTLET_REQUIRE_TOKEN=1, serve refuses to start without a token.`,
  options: SETTING_OPTIONS,
  examples: [
    'npx gauntlet-env serve --port 8000',
    `curl -X POST localhost:8000/reset -H 'content-type: application/json' -d '{"task_name":"click-test","seed":1}'`,
  ],
  // The first signal starts a graceful shutdown that exits 0; a second one exits at once.
  ownsSignals: true,
  async run({ values, io }) {
    const config = await configFrom(values);
    await configAsUsage(() => assertTokenIfRequired(config));
    installLastResortHandlers();
    // Settings only the tasks can check: real MiniWoB++'s folder, BROWSERGYM_BENCHMARK, the default task.
    const server = await configAsUsage(() => startServer(config));
    return serveUntilSignal(server, config, io);
  },
});

async function serveUntilSignal(
  server: Awaited<ReturnType<typeof startServer>>,
  config: ServerConfig,
  io: CommandIo,
): Promise<number> {
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
  io.out(
    `[gauntlet-env] listening on ${server.url} (ws: ${server.url.replace('http', 'ws')}/ws, gRPC: ${server.grpcUrl || 'off'}, max ${config.maxSessions} sessions)`,
  );
  await stopped;
  const grace = setTimeout(() => exitNow(`shutdown took longer than ${SHUTDOWN_GRACE_MS} ms`), SHUTDOWN_GRACE_MS);
  grace.unref();
  io.out('[gauntlet-env] shutting down');
  await server.close();
  clearTimeout(grace);
  return 0;
}

function exitNow(why: string): never {
  process.stderr.write(`[gauntlet-env] ${why}; exiting without waiting\n`);
  process.exit(1);
}

const SHUTDOWN_GRACE_MS = 10_000;
