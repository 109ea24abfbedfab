// A real env server for benchmarks: `gauntlet-env serve` on free ports, resolved once its gRPC
// health says SERVING (Chromium up), so no figure includes its start.
import { probeHealth } from '../../rollout-worker/dist/index.js';
import { startBin } from './processes.mjs';

/** Starts one env server with `flags` after the port flags; resolves with its gRPC URL, stop() and pid. */
export async function startEnvServer(flags = []) {
  const env = await startBin(
    'env-server',
    ['serve', '--port', '0', '--grpc-port', '0', '--host', '127.0.0.1', ...flags],
    /listening on (http:\/\/\S+) .*gRPC: (grpc:\/\/[^,\s]+)/,
  );
  const grpc = env.match[2];
  const until = Date.now() + 60_000;
  while (!(await probeHealth(grpc, 1_000))) {
    if (Date.now() > until) {
      await env.stop();
      throw new Error(`env server ${grpc} never became healthy; its output:\n${env.output().slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { grpc, http: env.match[1], stop: env.stop, pid: env.pid };
}
