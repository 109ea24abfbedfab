import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/cli.js', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  grpcUrl: string;
  /** Everything the server printed on stderr (its last-resort log shows up here). */
  stderr(): string;
  /** Resolves with the exit code if the process ever exits. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * `gauntlet-env serve` as its own process, exactly as an operator starts it: a crash here is a
 * crash of the product (the last-resort handlers are the entry point's, not a test's).
 */
export async function startServerProcess(
  flags: string[] = [],
  ports: { port: number; grpcPort: number } = { port: 0, grpcPort: 0 },
  env: NodeJS.ProcessEnv = process.env,
): Promise<ServerProcess> {
  const args = [
    BIN,
    'serve',
    '--host',
    '127.0.0.1',
    '--port',
    String(ports.port),
    '--grpc-port',
    String(ports.grpcPort),
    '--warm',
    '1',
    ...flags,
  ];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = /listening on .*/.exec(out)?.[0];
      if (line) resolve(line);
    });
    void exited.then((code) => reject(new Error(`gauntlet-env exited (${code}) before listening: ${err}`)));
  });
  const url = /(http:\/\/[\d.:]+)/.exec(listening)![1]!;
  const grpcUrl = /(grpc:\/\/[\d.:]+)/.exec(listening)![1]!;
  return {
    child,
    url,
    grpcUrl,
    stderr: () => err,
    exited,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
