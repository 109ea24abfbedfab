import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/**
 * Services this test folder talks to, started as their users start them: `node <service>/bin/cli.js`
 * (the trainer never imports another service; the bins need `npm run build` first).
 */
export interface Spawned {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

const bin = (service: string) => fileURLToPath(new URL(`../../../${service}/bin/cli.js`, import.meta.url));
const built = (service: string) => fileURLToPath(new URL(`../../../${service}/dist/cli/main.js`, import.meta.url));

/** Starts `args` of `service`'s bin and resolves with the URL matched in its output (stdout or stderr). */
export function spawnService(service: string, args: string[], urlPattern: RegExp, startMs = 60_000): Promise<Spawned> {
  if (!existsSync(built(service))) throw new Error(`${built(service)} is missing: build first (npm run build)`);
  const child = spawn(process.execPath, [bin(service), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise<Spawned>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => fail(new Error(`${service} did not announce its URL within ${startMs} ms:\n${output}`)),
      startMs,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      void stop().then(() => reject(error));
    };
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = urlPattern.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, child, stop });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => fail(new Error(`${service} exited (${code}) before announcing its URL:\n${output}`)));
  });
}

/** A port the OS says is free right now (the env server's flags take no 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `gauntlet-trainer serve` with the built-in tiny model on a free port. */
export function spawnPolicyServer(args: string[] = []): Promise<Spawned> {
  return spawnService('trainer', ['serve', '--port', '0', '--threads', '1', ...args], / at (http:\/\/[\d.]+:\d+)/);
}

/** `gauntlet-env serve` (real Chromium) on free ports, HTTP only needed by these tests. */
export async function spawnEnvServer(): Promise<Spawned> {
  const [port, grpcPort] = [await freePort(), await freePort()];
  return spawnService(
    'env-server',
    [
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--grpc-port',
      String(grpcPort),
      '--max-sessions',
      '2',
      '--warm',
      '1',
    ],
    /listening on (http:\/\/[\d.]+:\d+)/,
  );
}
