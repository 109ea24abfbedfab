import { join } from 'node:path';
import { probeHealth } from '../../src/env/health.js';
import { ROOT, startProcess, type Started } from './process.js';

export interface EnvServerProcess extends Started {
  http: string;
  grpc: string;
}

/**
 * A real env server (`gauntlet-env serve`) on free ports, as its own process, resolved once its
 * browser is up (its gRPC health turns SERVING), so every test starts from a healthy server.
 */
export async function startEnvServer(flags: string[] = []): Promise<EnvServerProcess> {
  const started = await startProcess(
    process.execPath,
    [join(ROOT, 'env-server/bin/cli.js'), 'serve', '--port', '0', '--grpc-port', '0', '--host', '127.0.0.1', ...flags],
    /listening on (http:\/\/\S+) .*gRPC: (grpc:\/\/[^,\s]+)/,
  );
  const server = { ...started, http: started.ready[1]!, grpc: started.ready[2]! };
  const until = Date.now() + 60_000;
  while (!(await probeHealth(server.grpc, 1_000))) {
    if (Date.now() > until || server.child.exitCode !== null) {
      await server.stop();
      throw new Error(`env server ${server.grpc} never became healthy; it printed:\n${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return server;
}
