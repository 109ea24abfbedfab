import { spawn } from 'node:child_process';
import { InfraError } from '@gauntlet/proto';
import type { Progress } from '@gauntlet/proto/cli';
import { findEnvBin } from './find-bin.js';

export interface LocalEnv {
  /** The server's HTTP URL, e.g. http://127.0.0.1:41234 (ws:// on the same port). */
  url: string;
  /** Its gRPC URL, e.g. grpc://127.0.0.1:41235. */
  grpcUrl: string;
  /** SIGTERM, then waits for the exit (the server closes its browser). */
  stop(): Promise<void>;
}

const READY = /listening on (http:\/\/\S+) .*gRPC: (grpc:\/\/[^,\s]+)/;

/**
 * Starts `gauntlet-env serve` on a free loopback port as a child process and resolves once it
 * announces its URL (its browser is up by then). The child dies with this process's exit.
 */
export async function startLocalEnv(
  options: {
    bin?: string;
    extraArgs?: string[];
    timeoutMs?: number;
    progress?: Progress;
    /** The child's environment (default this process's), e.g. a DISPLAY for a headed browser. */
    env?: NodeJS.ProcessEnv;
  } = {},
): Promise<LocalEnv> {
  const bin = options.bin ?? findEnvBin();
  const args = ['serve', '--port', '0', '--grpc-port', '0', '--host', '127.0.0.1', ...(options.extraArgs ?? [])];
  options.progress?.(`starting a local env server (${bin} ${args.join(' ')})`);
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let printed = '';
  const [url, grpcUrl] = await new Promise<[string, string]>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      const last = printed.trim().split('\n').slice(-2).join(' | ');
      reject(new InfraError(`--env-bin ${bin}: the local env server ${why}${last ? ` (it printed: ${last})` : ''}`));
    };
    const timer = setTimeout(() => fail('did not start'), options.timeoutMs ?? 120_000);
    const onData = (chunk: Buffer) => {
      printed += chunk.toString();
      const match = READY.exec(printed);
      if (match) {
        clearTimeout(timer);
        resolve([match[1]!, match[2]!]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (error) => fail(`could not be started: ${error.message}`));
    child.once('exit', (code, signal) => fail(`exited (${signal ?? code}) before listening`));
  });
  const onExit = () => child.kill('SIGKILL');
  process.once('exit', onExit);
  options.progress?.(`local env server at ${url}`);
  return {
    url,
    grpcUrl,
    async stop() {
      process.off('exit', onExit);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
