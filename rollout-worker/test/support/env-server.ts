import { join } from 'node:path';
import { ROOT, startProcess, type Started } from './process.js';

export interface EnvServerProcess extends Started {
  http: string;
  grpc: string;
}

/** A real env server (`gauntlet-env serve`) on free ports, as its own process. */
export async function startEnvServer(flags: string[] = []): Promise<EnvServerProcess> {
  const started = await startProcess(process.execPath, [join(ROOT, 'env-server/bin/cli.js'), 'serve', '--port', '0', '--grpc-port', '0', '--host', '127.0.0.1', ...flags], /listening on (http:\/\/\S+) .*gRPC: (grpc:\/\/[^,\s]+)/);
  return { ...started, http: started.ready[1]!, grpc: started.ready[2]! };
}
